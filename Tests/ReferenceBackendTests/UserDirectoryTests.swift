import JSON
import TestSupport
import Testing

@testable import ReferenceBackend

@Suite struct UserDirectoryTests {
    @Test func testUsersAuthenticateWithTheirTokens() {
        let users = UserDirectory.testUsers
        #expect(users.user(forToken: "token-user-a")?.handle == "callx:user-a")
        #expect(users.user(forToken: "token-user-b")?.userId == "user-b")
        #expect(users.user(forToken: "token-user-c")?.userId == "user-c")
        #expect(users.user(forToken: "user-a") == nil)
    }

    @Test func usersFileReplacesThem() throws {
        let dir = TemporaryDirectory()
        let path = try dir.write(
            "users.json",
            #"{"users": [{"userId": "alice", "displayName": "Alice", "handle": "callx:alice", "token": "s3cret"}]}"#)
        let users = try UserDirectory.load(path: path)
        #expect(users.users.map(\.userId) == ["alice"])
        #expect(users.user(forToken: "s3cret")?.displayName == "Alice")
        #expect(users.user(forToken: "token-user-a") == nil)
    }

    @Test func badUsersFilesSayWhatIsWrong() throws {
        let dir = TemporaryDirectory()
        let missingField = try dir.write("a.json", #"[{"userId": "alice", "displayName": "Alice", "handle": "h"}]"#)
        #expect(throws: UserDirectory.LoadError.self) { try UserDirectory.load(path: missingField) }
        do {
            _ = try UserDirectory.load(path: missingField)
        } catch {
            #expect(error.description.contains("users[0].token"))
        }
        let duplicate = try dir.write(
            "b.json",
            #"[{"userId": "x", "displayName": "X", "handle": "h", "token": "t1"}, {"userId": "x", "displayName": "Y", "handle": "h", "token": "t2"}]"#
        )
        #expect(throws: UserDirectory.LoadError.self) { try UserDirectory.load(path: duplicate) }
        #expect(throws: UserDirectory.LoadError.self) { try UserDirectory.load(path: dir.file("missing.json")) }
    }
}
