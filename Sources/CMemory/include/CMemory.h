#ifndef CMEMORY_H
#define CMEMORY_H

/// Fixes the C allocator's thresholds for mapping blocks and trimming free memory (glibc's
/// `mallopt`); does nothing where the allocator has no such settings. Returns 1 when set.
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold);

#endif
