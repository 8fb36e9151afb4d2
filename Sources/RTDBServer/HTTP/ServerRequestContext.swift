import Hummingbird
import NIOCore

/// The request context of the REST API: the core storage plus the channel (for the peer address)
/// and Firebase's 256 MB body limit.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    let bodyLimit: Int

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        bodyLimit = 256 * 1024 * 1024
    }

    var maxUploadSize: Int { bodyLimit }
}
