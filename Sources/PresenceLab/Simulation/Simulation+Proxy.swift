import Foundation
import LinkSim
import RTDBCore

extension Simulation {
    /// How often the standalone link's state is read while attached to one.
    static let proxyPollInterval: Duration = .seconds(1)

    /// Reads the standalone link's state now and then, so that what the dashboard shows of it is
    /// what it is (another tool may drive it too).
    func watchProxy() {
        guard let control = options.linkControl else { return }
        let client = LinkControlClient(url: control)
        let time = options.time
        let task = Task { [weak self] in
            while !Task.isCancelled {
                await self?.readProxy(client)
                do {
                    try await time.sleep(for: Self.proxyPollInterval)
                } catch {
                    return
                }
            }
        }
        proxy.start(ProxyLink(control: client.url.absoluteString), reader: task)
    }

    private func readProxy(_ client: LinkControlClient) async {
        let result: ProxyLink
        do {
            result = ProxyLink(control: client.url.absoluteString, link: DeviceLink(control: try await client.state()))
        } catch {
            result = ProxyLink(control: client.url.absoluteString, problem: "\(error)")
        }
        proxy.record(result)
    }

    /// Drives the standalone link instead of this device's own: `decide` picks the change from
    /// its state now; the outcome is an event either way.
    func driveProxy(_ decide: @escaping @Sendable (DeviceLink) -> LinkControl.Change) -> Bool {
        guard let control = options.linkControl else { return false }
        let client = LinkControlClient(url: control)
        Task { [weak self] in
            do {
                guard let now = DeviceLink(control: try await client.state()) else {
                    throw LinkError.invalidRequest("the control's answer does not read as a link")
                }
                guard let after = DeviceLink(control: try await client.apply(decide(now))) else {
                    throw LinkError.invalidRequest("the control's answer to the change does not read as a link")
                }
                self?.proxy.record(ProxyLink(control: client.url.absoluteString, link: after))
                self?.emit(.notice("proxy now \(after.mode.rawValue) · \(after.conditions)"))
            } catch {
                self?.emit(.notice("proxy at \(client.url.absoluteString): \(error)"))
            }
        }
        return true
    }

    /// The standalone link, as last read.
    var proxySnapshot: ProxyLink? { proxy.link }
}
