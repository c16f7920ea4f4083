import Foundation
import JSON
import TestSupport
import Testing

@testable import AllProfiles
@testable import Conformance
@testable import PushService

/// A `profile: push-service` target file's `serviceApp`: the app, the service's own routes and member names, and
/// the diagnostics for each mistake; and how the profile applies them to the requests it sends.
@Suite struct PushServiceTargetFileTests {
    static let users = """
        users:
          a: {userId: a, auth: {bearer: x}}
          b: {userId: b, auth: {bearer: x}}
          c: {userId: c, auth: {bearer: x}}
        """

    func load(_ text: String) throws(SuiteLoadError) -> TargetFile {
        try TargetFile.load(
            text: "baseURL: http://127.0.0.1:9\nprofile: push-service\n" + text + Self.users, file: "t.yaml")
    }

    func errors(_ text: String) -> [String] {
        do {
            _ = try load(text)
            return []
        } catch { return error.errors.map(\.description) }
    }

    @Test func theAppRoutesAndFieldNamesReachTheTarget() throws {
        let file = try load(
            """
            serviceApp:
              appId: 2f6c0e1a-0000-4000-8000-000000000001
              apiKey: psk_literal
              routes: {notifications: /v2/messages, notification: "/v2/messages/{notificationId}?app={appId}"}
              fieldNames: {include_aliases: audience, successful: delivered}

            """)
        let app = try #require(file.target(defaultAppId: "com.example").serviceApp)
        #expect(app.appId == "2f6c0e1a-0000-4000-8000-000000000001" && app.apiKey == "psk_literal")
        #expect(
            app.route(
                "notification", seedRoute: PushServiceRoutes.seed["notification"]!,
                ["notificationId": "n 1", "appId": app.appId])
                == "/v2/messages/n%201?app=2f6c0e1a-0000-4000-8000-000000000001")
        // A route the file does not map keeps the seed's.
        #expect(
            app.route("devices", seedRoute: PushServiceRoutes.seed["devices"]!, ["appId": "x"])
                == "/api/v1/apps/x/devices")
        let sent = app.fieldNames.toService(
            ["include_aliases": ["external_id": ["u"]], "call": ["id": "c"]], route: "notifications")
        #expect(sent == ["audience": ["external_id": ["u"]], "call": ["id": "c"]])
        #expect(app.routeAuth.isEmpty, "the device routes carry no key unless the file says so")
    }

    /// `fieldNames` scoped to a route or a path: a registration's `id` is the service's `installationId` while a
    /// call's `id` and a message answer's `id` keep their name; unscoped renames apply at every depth, as before.
    @Test func fieldNamesMayBeScopedToARouteOrAPath() throws {
        let file = try load(
            """
            serviceApp:
              appId: a
              apiKey: k
              auth: {devices: key, device: bearer}
              fieldNames:
                external_id: externalId
                call.caller_name: callerName
                devices: {id: installationId, token: pushToken}

            """)
        let app = try #require(file.target(defaultAppId: "com.example").serviceApp)
        #expect(app.routeAuth == ["devices": .key, "device": .bearer])
        let names = app.fieldNames
        let call: JSONValue = [
            "include_aliases": ["external_id": ["u"]], "call": ["id": "c", "caller_name": "Ann"], "caller_name": "x",
        ]
        #expect(
            names.toService(call, route: "notifications") == [
                "include_aliases": ["externalId": ["u"]], "call": ["id": "c", "callerName": "Ann"], "caller_name": "x",
            ])
        #expect(
            names.toSeed(["id": "n1", "externalId": nil], route: "notifications") == ["id": "n1", "external_id": nil])
        #expect(
            names.toService(["external_id": "u", "token": "t"], route: "devices") == [
                "externalId": "u", "pushToken": "t",
            ])
        #expect(names.toSeed(["installationId": "d1"], route: "devices") == ["id": "d1"])
        #expect(names.toSeed(["installationId": "d1"], route: "notifications") == ["installationId": "d1"])
    }

    @Test func scopedNamesAndRouteAuthMistakesAreNamed() {
        let base = "serviceApp:\n  appId: a\n  apiKey: k\n"
        let route = errors(base + "  fieldNames:\n    device_s: {id: x}\n")
        #expect(route.contains { $0.contains("t.yaml:7:5") && $0.contains("'device_s' is no route") }, "\(route)")
        let path = errors(base + "  fieldNames:\n    call..id: x\n")
        #expect(path.contains { $0.contains("not a member name or a dotted path") }, "\(path)")
        let twice = errors(base + "  fieldNames:\n    call.id: x\n    call.caller_name: x\n")
        #expect(twice.contains { $0.contains("'x' is already the service's name for 'call.id'") }, "\(twice)")
        let notifications = errors(base + "  auth: {notifications: key}\n")
        #expect(
            notifications.contains {
                $0.contains("serviceApp.auth.notifications") && $0.contains("carries the authentication each scenario")
            }, "\(notifications)")
        #expect(errors(base + "  auth: {devices: token}\n").contains { $0.contains("serviceApp.auth.devices") })
    }

    @Test func mistakesAreNamed() {
        #expect(errors("").contains { $0.contains("needs serviceApp") })
        #expect(errors("serviceApp: {apiKey: k}\n").contains { $0.contains("missing 'appId'") })
        #expect(
            errors("serviceApp: {appId: a, apiKey: k, routes: {notifs: /x}}\n").contains {
                $0.contains("'notifs' is no route")
            })
        #expect(
            errors("serviceApp: {appId: a, apiKey: k, routes: {notifications: x}}\n").contains {
                $0.contains("not a path")
            })
        let twice = errors(
            "serviceApp:\n  appId: a\n  apiKey: k\n  fieldNames:\n    headings: title\n    contents: title\n")
        #expect(
            twice.contains {
                $0.contains("t.yaml:8") && $0.contains("serviceApp.fieldNames.contents")
                    && $0.contains("'title' is already the service's name for 'headings'")
            }, "\(twice)")
        #expect(
            errors("serviceApp: {appId: a, apiKey: k, fieldNames: {headings: \"\"}}\n").contains {
                $0.contains("must not be empty")
            })
        #expect(errors("serviceApp: {appId: a, apiKey: k, fieldNames: [a]}\n").contains { $0.contains("mapping") })
        #expect(errors("serviceApp: {appId: a, appIdEnv: A, apiKey: k}\n").contains { $0.contains("not both") })
        #expect(errors("serviceApp: {appIdEnv: A, apiKey: k}\n").contains { $0.contains("lifecycle.start") })
        #expect(
            errors("serviceApp: {appId: a, apiKey: \"${RINGCHECK_SURELY_UNSET_9}\"}\n").contains {
                $0.contains("is not set")
            })
    }

    /// No push-service request or answer goes through the engine's value maps: a `values:` block is refused where
    /// it stands rather than accepted and ignored.
    @Test func aValuesBlockIsRefusedWhereItStands() {
        let found = errors("serviceApp: {appId: a, apiKey: k}\nvalues:\n  reason: {declined: rejected}\n")
        #expect(
            found.contains {
                $0.hasPrefix("t.yaml:4:1:") && $0.contains("values: is not used by the push-service profile")
            }, "\(found)")
        #expect(errors("serviceApp: {appId: a, apiKey: k}\n").isEmpty)
    }
}
