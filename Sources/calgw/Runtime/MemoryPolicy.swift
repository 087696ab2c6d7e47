import CMemory

/// How the C allocator returns memory to the system, set once when calgw starts.
///
/// glibc raises its threshold for serving a block from `mmap` to the size of each large block
/// freed (up to 32 MB) and keeps up to twice that free at the top of each heap before giving
/// it back. A run frees many large arrays (listings, tables, a batch's bytes) between
/// long-lived small ones, so with the moving thresholds a takeover of 1,000,000 files peaked
/// at 429 MB, and at 379 MB with fixed ones (blocks of 1 MB and more mapped, 4 MB of free
/// top trimmed), which keep each freed listing's memory from staying behind.
enum MemoryPolicy {
    static func apply() {
        _ = cmem_fix_allocator_thresholds(1 << 20, 4 << 20)
    }
}
