import CMemory
import Testing

/// The allocator settings calgw starts with (`MemoryPolicy`) take effect where the C library is
/// glibc. The C file once tested for glibc before including any of its headers, so they were
/// left out, and a million-file takeover's memory bound held only by chance.
@Suite struct CMemoryPolicyTests {
    @Test func theAllocatorSettingsTakeEffectOnLinux() {
        #if os(Linux)
            #expect(cmem_fix_allocator_thresholds(1 << 20, 4 << 20) == 1)
            #expect(cmem_limit_arenas_to_cores() == 1)
        #endif
    }
}
