import NIOCore

/// The client's own WebSocket handlers, put on a channel the caller drives: the door the fuzz
/// target (`client-socket`) reads a server's bytes through, in release builds as in debug ones.
@_spi(Fuzzing) public enum ClientSocketPipeline {
    /// Puts the upgrade for `url` with the request key `requestKey` on `channel`.
    ///
    /// Once upgraded, the frame handlers follow; `onEvent` hears `.opened`, then what the frames
    /// say, or `.closed` with the reason the upgrade was refused. Throws for a URL the client
    /// would not dial.
    public static func install(
        on channel: any Channel, url: String, requestKey: String,
        onEvent: @escaping @Sendable (TransportEvent) -> Void
    ) throws {
        let target = try WebSocketTarget(url: url)
        let upgrade = WebSocketUpgradeHandler(
            target: target, requestKey: requestKey,
            upgraded: { channel in
                onEvent(.opened)
                _ = try ClientFrameHandler.add(to: channel.pipeline, onEvent: onEvent)
            },
            refused: { reason in onEvent(.closed(reason: reason)) })
        try channel.pipeline.syncOperations.addHandler(upgrade)
    }
}
