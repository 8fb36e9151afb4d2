extension Database {
    /// How the connection backs off between attempts and how long an attempt may take (the
    /// SDKs' figures by default); set it before first use, later changes do not apply.
    public var retryPolicy: RetryPolicy {
        get { withState { $0.settings.retryPolicy } }
        set { withState { $0.settings.retryPolicy = newValue } }
    }
}
