extension MockProviders {
    /// The names `ringcheck mocks --port NAME=PORT` takes, each with the listener it sets: every
    /// listener of `registered` (`apns`, `apnsSandbox`, `google`, `onesignal`), every provider's ID for
    /// its first listener (`fcm` and `oauth` for `google`), and the control API's (`control`).
    public static func portNames(
        registered: [any MockProvider.Type] = MockProviders.registered
    ) -> [(name: String, listener: String)] {
        var out: [(name: String, listener: String)] = []
        func add(_ name: String, _ listener: String) {
            if !out.contains(where: { $0.name == name }) { out.append((name, listener)) }
        }
        for provider in registered {
            for listener in provider.listeners { add(listener.name, listener.name) }
        }
        for provider in registered {
            if let first = provider.listeners.first { add(provider.id.rawValue, first.name) }
        }
        add(MockStack.controlListener, MockStack.controlListener)
        return out
    }

    /// The listener `name` sets a port for (see `portNames`); nil for a name no provider knows.
    public static func listener(
        forPortName name: String, registered: [any MockProvider.Type] = MockProviders.registered
    ) -> String? {
        portNames(registered: registered).first { $0.name == name }?.listener
    }
}
