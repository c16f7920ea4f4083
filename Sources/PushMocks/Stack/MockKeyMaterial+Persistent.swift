import Foundation
import InputLimits
import JSON
import Signing

extension MockKeyMaterial {
    /// The file in a state directory that keeps the APNs key and the service account across starts.
    public static let persistentFileName = "provider-keys.json"

    /// The key material kept in `directory` (made and written there on the first start), so a backend
    /// configured once with the `.p8` file, its IDs and the service account keeps working against mocks
    /// started again later. A file from another project ID is refused rather than silently replaced.
    public static func persistent(
        in directory: String, projectID: String, tokenURI: String, bundleID: String
    ) throws -> MockKeyMaterial {
        let path = directory + "/" + persistentFileName
        if let data = try BoundedFile.bytesIfPresent(path) {
            let keys = try load(Data(data), path: path, tokenURI: tokenURI, bundleID: bundleID)
            guard keys.serviceAccount.projectID == projectID else {
                throw MockKeyFileError(
                    "\(path) holds keys for project '\(keys.serviceAccount.projectID)', not '\(projectID)'; "
                        + "delete it to make new keys")
            }
            return keys
        }
        let keys = try generate(projectID: projectID, tokenURI: tokenURI, bundleID: bundleID)
        let file: JSONValue = [
            "apnsKeyID": .string(keys.apnsKey.keyID), "apnsTeamID": .string(keys.apnsKey.teamID),
            "apnsPrivateKey": .string(try keys.apnsKey.privateKey.pkcs8PEM()),
            "serviceAccount": try JSONValue.parse(Array(try keys.serviceAccount.json().utf8)),
        ]
        try MockStack.write(file.serialized(pretty: true), to: path, mode: 0o600)
        return keys
    }

    static func load(_ data: Data, path: String, tokenURI: String, bundleID: String) throws -> MockKeyMaterial {
        guard let json = try? JSONValue.parse(Array(data)), let keyID = json["apnsKeyID"]?.stringValue,
            let teamID = json["apnsTeamID"]?.stringValue, let pem = json["apnsPrivateKey"]?.stringValue,
            let account = json["serviceAccount"]
        else {
            throw MockKeyFileError("\(path) is not a ringcheck provider-keys file; delete it to make new keys")
        }
        do {
            let apnsKey = APNsSigningKey(keyID: keyID, teamID: teamID, privateKey: try PrivateKey(pem: pem))
            var serviceAccount = try ServiceAccount.parse(json: account.serialized())
            serviceAccount.tokenURI = tokenURI
            return MockKeyMaterial(
                apnsKey: apnsKey, serviceAccount: serviceAccount,
                credentials: try MockCredentials(apnsKey: apnsKey, serviceAccount: serviceAccount, bundleID: bundleID))
        } catch {
            throw MockKeyFileError("\(path): \(error)")
        }
    }
}

/// A provider-keys file that cannot be read or written.
public struct MockKeyFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
