import Conformance
import JSON

/// A token the fake caller registered: the device, the account it belongs to, and what the
/// registration's answer saved for its delete (a device ID the backend made up, per the target file).
struct RegisteredDevice: Sendable {
    var device: VirtualCallee
    var user: TargetUser
    var saved: [String: JSONValue]
}

extension FakeCaller {
    /// Once the call is over: deletes the tokens this run registered, newest first, as `ringcheck run`
    /// does after each scenario, so a real backend does not keep ringing devices that no longer exist.
    /// Not judged: a delete the backend refuses is a note on the timeline.
    func removeDevices() async {
        guard plan.removesDevicesAfterwards else { return }
        for r in registered.reversed() {
            let d = r.device
            var values = d.registration(on: target).values
            values["token"] = .string(d.token)
            for (name, value) in r.saved { values[name] = value }
            let path = RequestTemplate.fill(
                target.tokenRoute, ["installationId": d.installationId, "kind": d.kind.rawValue])
            let reply = await send(.deleteToken, "DELETE", path, as: r.user, values: values)
            if reply.ok {
                entry(
                    .setup, "removed virtual \(d.name) of \(r.user.userId): \(reply.sent) → \(reply.summary)",
                    [("device", .string(d.name)), ("installationId", .string(d.installationId))])
            } else {
                note(
                    "could not remove virtual \(d.name) of \(r.user.userId): \(reply.sent) → \(reply.summary); "
                        + "the backend may keep its token")
            }
        }
        registered = []
    }

    /// The values a registration's answer gives for the delete, as the target file's
    /// `registerToken.response.save` names them (none on the reference design).
    func savedValues(ofRegistration reply: Reply) -> [String: JSONValue] {
        guard let mapping = target.mapping, !mapping.savedRegistrationValues.isEmpty else { return [:] }
        let saved = mapping.savedValues(ofRegistration: try? JSONValue.parse(reply.body))
        for (name, path) in saved.missing {
            note("the registration's answer has no '\(path)' (response.save.\(name)): its delete goes without it")
        }
        return saved.values
    }
}
