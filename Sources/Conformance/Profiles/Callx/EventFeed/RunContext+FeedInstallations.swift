import JSON

extension RunContext {
    /// Registers a VoIP token for the installation of each user whose own feed the scenario reads
    /// (`Scenario.feedReadingUsers`), before the first step.
    ///
    /// The feed is read per installation, and the seed makes installations through token
    /// registration: a real app reads its feed with the installation it registered. Reading with one
    /// the backend never saw made a backend that refuses unknown installations fail MUST CALLX-EVT-7
    /// in one scenario and stop seven others as harness errors. A VoIP installation of the caller is
    /// sent nothing by a conforming backend (VoIP pushes are invitations only, and the caller is not
    /// invited), so no device's pushes change. A refused registration stops the scenario as a harness
    /// error, as a device's does.
    func registerFeedInstallations() async throws {
        for name in scenario.feedReadingUsers {
            guard
                let exchange = await registerInstallation(
                    ofUser: name, kind: .apnsVoip, token: RandomText.hex(bytes: 32))
            else { continue }
            guard exchange.isSuccess else {
                throw HarnessStop(
                    message: "registering \(name)'s installation (its event feed's) failed: "
                        + (exchange.status.map(String.init) ?? exchange.error ?? "?"))
            }
        }
    }
}
