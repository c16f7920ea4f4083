extension ScenarioEngine {
    /// Why the clean-up deletes no tokens, or nil. The reference design's delete route is one profile's own API
    /// (`Profile.ownsReferenceTokenRoutes`); a backend of another profile whose file maps registerToken has its
    /// own token API, and a delete guessed at a route it never declared only collects 404s.
    var tokenCleanUpSkipReason: String? {
        guard !profile.ownsReferenceTokenRoutes, let register = target.apiMapping.registrationWithoutDelete
        else { return nil }
        return "the target file maps operations.registerToken (\(register)) but not operations.deleteToken"
    }

    /// The route token deletes go to, as the target file (or the reference design) names it.
    var deleteTokenRoute: String { target.apiMapping.deleteTokenRoute }

    /// The run's warnings about its token clean-up, over every engine it used (one for the scenarios that
    /// run alone too): empty when every delete worked.
    public static func cleanUpWarnings(_ engines: [ScenarioEngine]) async -> [String] {
        guard let first = engines.first else { return [] }
        return await CleanUpTally.warnings(
            engines.map(\.cleanUpTally), route: first.deleteTokenRoute, skipReason: first.tokenCleanUpSkipReason,
            notFoundIsCleaned: first.target.cleanUpNotFoundIsCleaned)
    }
}
