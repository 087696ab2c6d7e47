#ifndef CMEMORY_H
#define CMEMORY_H

/// Fixes the C allocator's thresholds for mapping blocks and trimming free memory (glibc's
/// `mallopt`); does nothing where the allocator has no such settings. Returns 1 when set.
int cmem_fix_allocator_thresholds(int mmap_threshold, int trim_threshold);

/// Limits the heaps (arenas) the C allocator keeps for its threads to one per online core, at
/// least two (glibc's `M_ARENA_MAX`; its default is eight per core); does nothing where the
/// allocator has no such setting. Returns 1 when set.
int cmem_limit_arenas_to_cores(void);

#endif
