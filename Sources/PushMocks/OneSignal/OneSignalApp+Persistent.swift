import Foundation
import InputLimits
import JSON

extension OneSignalApp {
    /// The file in a state directory that keeps both apps' IDs and keys across starts.
    public static let persistentFileName = "onesignal-apps.json"

    /// The standard and the VoIP app kept in `directory` (made and written there on the first start), so
    /// a kit server configured once with `ONESIGNAL_*` keeps working against mocks started again.
    public static func persistent(in directory: String) throws -> (standard: OneSignalApp, voip: OneSignalApp) {
        let path = directory + "/" + persistentFileName
        if let data = try BoundedFile.bytesIfPresent(path) {
            guard let json = try? JSONValue.parse(data), let standard = app(.standard, in: json),
                let voip = app(.voip, in: json)
            else {
                throw MockKeyFileError("\(path) is not a ringcheck OneSignal apps file; delete it to make new apps")
            }
            return (standard, voip)
        }
        let apps = (standard: generate(.standard), voip: generate(.voip))
        let file: JSONValue = .object(
            [apps.standard, apps.voip].map {
                (key: $0.role.rawValue, value: ["appId": .string($0.appID), "apiKey": .string($0.apiKey)])
            })
        try MockStack.write(file.serialized(pretty: true), to: path, mode: 0o600)
        return apps
    }

    static func app(_ role: Role, in json: JSONValue) -> OneSignalApp? {
        guard let id = json[role.rawValue]?["appId"]?.stringValue, MockIDs.isUUID(id),
            let key = json[role.rawValue]?["apiKey"]?.stringValue, !key.isEmpty
        else { return nil }
        return OneSignalApp(role: role, appID: id, apiKey: key)
    }
}
