import Foundation
import PushMocks

extension ReferenceServerProcess {
    /// `serve-reference --profile dialstack --port 0 --log -` pushing through `mocks`, with a fresh
    /// webhook secret from `DIALSTACK_WEBHOOK_SECRET` (returned, for signing webhooks).
    public static func dialstack(mocks: MockStack) async throws -> (server: ReferenceServerProcess, secret: String) {
        let secret = "whsec_" + UUID().uuidString.lowercased()
        var env = mocks.settings.environmentDictionary
        env["DIALSTACK_WEBHOOK_SECRET"] = secret
        let server = try await start(
            arguments: ["--profile", "dialstack", "--port", "0", "--log", "-"], environment: env)
        return (server, secret)
    }
}
