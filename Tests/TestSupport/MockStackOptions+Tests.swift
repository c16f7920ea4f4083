import PushMocks

extension MockStack.Options {
    /// The default options with the service-account key of `MockFixture.keys`, which every mock stack this
    /// test process starts shares. A test run starts hundreds of stacks, most of them at once when it
    /// begins; a fresh RSA key each cost a quarter to half a second of CPU, over a minute in all, which held
    /// back the tests already running on a 2-core machine.
    public static var forTests: MockStack.Options {
        var options = MockStack.Options()
        options.serviceAccountKey = MockFixture.keys.serviceAccount.privateKey
        return options
    }
}
