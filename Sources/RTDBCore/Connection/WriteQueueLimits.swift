/// The client's write queue bound, where both the engine and what shows it can read it.
public enum WriteQueueLimits {
    /// The most bytes a device's write queue holds unless set otherwise: 100 MB.
    public static let defaultMaxPendingBytes = 100 * 1024 * 1024
}
