#include "CMemory.h"

#if defined(__GLIBC__)
#include <malloc.h>
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold);
}
#else
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold) {
    (void)mmap_threshold; (void)trim_threshold;
    return 0;
}
#endif
