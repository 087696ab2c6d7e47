import CMemory

/// How the C allocator returns memory to the system, set once when calgw starts.
///
/// glibc raises its threshold for serving a block from `mmap` to the size of each large block
/// freed (up to 32 MB), keeps up to twice that free at the top of each heap, and gives threads
/// heaps of their own, up to eight per core, none reusing what another freed. A run frees large
/// arrays (listings, a batch's bytes) between long-lived small ones, on every core: a takeover
/// of 1,000,000 files peaked at 322–349 MB so, and at 270 MB with blocks of 1 MB and more
/// mapped, 4 MB of free top trimmed and one heap per core (`CMemoryPolicyTests`).
enum MemoryPolicy {
    static func apply() {
        _ = cmem_fix_allocator_thresholds(1 << 20, 4 << 20)
        _ = cmem_limit_arenas_to_cores()
    }
}
