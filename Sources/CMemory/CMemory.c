#include "CMemory.h"
// Any header of the C library says which it is: without one, `__GLIBC__` is never defined
// and the settings below were left out on glibc too.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold);
}
int cmem_limit_arenas_to_cores(void) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return mallopt(M_ARENA_MAX, cores > 2 ? (int)cores : 2);
}
#else
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold) {
    (void)mmap_threshold; (void)trim_threshold;
    return 0;
}
int cmem_limit_arenas_to_cores(void) {
    return 0;
}
#endif
