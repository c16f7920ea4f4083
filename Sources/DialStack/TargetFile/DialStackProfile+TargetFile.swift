import Conformance

extension DialStackProfile {
    /// `webhook:`: where the backend receives DialStack's signed webhooks.
    public var targetFileKeys: [String] { ["webhook"] }

    public func decodeTargetFile(
        _ section: TargetFileSection, into file: inout TargetFile, decoder: inout TargetFileDecoder
    ) -> (any ProfileConfiguration)? {
        decoder.decodeWebhook(section["webhook"], into: &file, root: section.root)
    }

    public var targetFileTemplate: String {
        """
        # A profile: dialstack backend also says where it takes DialStack's signed webhooks, with the secret
        # (or secretEnv: NAME: ringcheck generates one and sets NAME in the lifecycle's environment), and may give
        # each account a dialstackUserId (the data.user_id DialStack sends; default: its userId):
        # webhook: {path: /webhooks/dialstack, secret: "${DIALSTACK_WEBHOOK_SECRET}"}
        # A backend that enables Wake-Up Hold through DialStack's API (users.update) reaches ringcheck's mock of it
        # at RINGCHECK_DIALSTACK_API_URL with the key RINGCHECK_DIALSTACK_API_KEY, e.g. under lifecycle:
        #   environment: {DIALSTACK_API_URL: "${RINGCHECK_DIALSTACK_API_URL}", DIALSTACK_API_KEY: "${RINGCHECK_DIALSTACK_API_KEY}"}

        """
    }
}
