import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Why a connection failed, in plain words: what happened, not the transport's type names
/// (`connection refused`, not `read(descriptor:pointer:size:): Connection refused (errno: 111)`).
public enum TransportFailure {
    /// The words for `error`, as the connection's phase and the dashboard show them.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return describe(first.error) }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the server's name did not resolve (\(error.host))"
            }
            return "could not connect to \(error.host):\(error.port)"
        case let error as IOError:
            return describe(errno: error.errnoCode)
        case let error as ChannelError:
            switch error {
            case .connectTimeout(let limit): return "timed out connecting (no answer in \(limit))"
            case .inappropriateOperationForState, .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed,
                .inputClosed:
                return "the connection closed before the server answered"
            default: return "connection failed (\(error))"
            }
        case let error as NIOWebSocketError:
            return "WebSocket error: \(error)"
        case let error as NIOSSLError:
            return "TLS failure: \(error)"
        case let error as BoringSSLError:
            return "TLS failure: \(error)"
        default:
            return "\(error)"
        }
    }

    /// The words for a system error number.
    public static func describe(errno code: Int32) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused (nothing listens there)"
        case ECONNRESET: return "connection reset"
        case ETIMEDOUT: return "timed out"
        case EHOSTUNREACH, ENETUNREACH: return "no route to the server"
        case EPIPE: return "the connection closed"
        case ECONNABORTED: return "connection aborted"
        default: return String(cString: strerror(code))
        }
    }
}
