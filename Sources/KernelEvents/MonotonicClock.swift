#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Seconds on the monotonic clock: what waits and debounces are measured in, unmoved by a
/// change of the wall clock.
public enum MonotonicClock {
    /// Seconds since an unspecified start, never going back.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
