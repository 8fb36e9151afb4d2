import Foundation
import LinkSim
import RTDBCore
import Synchronization

/// The standalone link this device's traffic crosses (``SimulationOptions/linkControl``): read
/// now and then, so that what the dashboard shows of it is what it is (another tool may drive it
/// too), and driven instead of this device's own link.
final class ProxyLinkWatch: Sendable {
    /// How often the link's state is read.
    static let pollInterval: Duration = .seconds(1)

    private let client: LinkControlClient?
    private let time: TimeSource
    private let state = Mutex<(link: ProxyLink?, reader: Task<Void, Never>?)>((nil, nil))

    /// The link whose control interface is at `control` (nil: none), read on `time`.
    init(control: URL?, time: TimeSource) {
        client = control.map(LinkControlClient.init(url:))
        self.time = time
    }

    /// The link as last read; nil without one.
    var link: ProxyLink? { state.withLock { $0.link } }

    /// Starts reading it, once a ``pollInterval``.
    func start() {
        guard let client else { return }
        let time = time
        let reader = Task { [weak self] in
            while !Task.isCancelled {
                await self?.read(client)
                guard (try? await time.sleep(for: Self.pollInterval)) != nil else { return }
            }
        }
        state.withLock { $0 = (ProxyLink(control: client.url.absoluteString), reader) }
    }

    /// Stops reading it.
    func stop() { state.withLock { $0.reader }?.cancel() }

    private func read(_ client: LinkControlClient) async {
        let result: ProxyLink
        do {
            result = ProxyLink(control: client.url.absoluteString, link: DeviceLink(control: try await client.state()))
        } catch {
            result = ProxyLink(control: client.url.absoluteString, problem: "\(error)")
        }
        state.withLock { $0.link = result }
    }

    /// Drives the link, and whether there is one to drive.
    ///
    /// `decide` picks the change from its state now; `tell` hears the outcome either way. False
    /// without a link (the caller drives this device's own).
    func drive(
        _ decide: @escaping @Sendable (DeviceLink) -> LinkControl.Change,
        tell: @escaping @Sendable (String) -> Void
    ) -> Bool {
        guard let client else { return false }
        Task { [weak self] in
            do {
                guard let now = DeviceLink(control: try await client.state()) else {
                    throw LinkError.invalidRequest("the control's answer does not read as a link")
                }
                guard let after = DeviceLink(control: try await client.apply(decide(now))) else {
                    throw LinkError.invalidRequest("the control's answer to the change does not read as a link")
                }
                self?.state.withLock { $0.link = ProxyLink(control: client.url.absoluteString, link: after) }
                tell("proxy now \(after.mode.rawValue) · \(after.conditions)")
            } catch {
                tell("proxy at \(client.url.absoluteString): \(error)")
            }
        }
        return true
    }
}
