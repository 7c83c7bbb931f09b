#include "gen/gen.h"
