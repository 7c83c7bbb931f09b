#include "emit/emit_c.h"
