/* msm_api.c — the public multiscalar multiplications (include/ecopt/msm.h), dispatched once per call to the
 * chosen backend's whole operation (backend.h). */
#include "ecopt/msm.h"

#include <string.h>

#include "backend.h"

size_t ecopt_edwards25519_msm_scratch_size(size_t n) {
    /* The largest need of any compiled backend: the buffer stays big enough whichever backend runs the call. */
    size_t nbe, most = 0;
    const ecopt_backend *const *bes = ecopt_backend_all(&nbe);
    for (size_t b = 0; b < nbe; b++) {
        size_t need = bes[b]->msm_scratch_size(n, 0);
        if (need > most) most = need;
    }
    return most;
}

int ecopt_edwards25519_msm_vartime(ecopt_edwards25519_point *out, const uint8_t *scalars,
                                   const ecopt_edwards25519_point *points, size_t n, void *scratch,
                                   size_t scratch_len) {
    /* The public size, not the running backend's own (smaller on some): a buffer accepted here is accepted on
     * every CPU, and one refused here is refused everywhere, as msm.h promises. */
    if (scratch_len < ecopt_edwards25519_msm_scratch_size(n) || (n > 0 && scratch == NULL)) {
        memset(out, 0, sizeof *out);
        return ECOPT_ERR_LENGTH;
    }
    return ecopt_backend_get()->msm_vartime(out, scalars, points, n, scratch, scratch_len, 0);
}

int ecopt_edwards25519_msm_ct(ecopt_edwards25519_point *out, const uint8_t *scalars,
                              const ecopt_edwards25519_point *points, size_t n) {
    ecopt_backend_get()->msm_ct(out, scalars, points, n);
    return ECOPT_OK;
}
