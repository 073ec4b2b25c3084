/// `[apps.NAME]`: one mobile app whose devices sipwake wakes with the
/// operator's own push credentials (or through the Acrobits gateway). A
/// device tuple's app id picks its app; tuples of apps not listed go to the
/// provider their tuple names (the Acrobits gateway unless the admin API set
/// another).
public struct AppSection: Sendable, Hashable {
    /// `NAME` in `[apps.NAME]`: a label for logs and errors.
    public var name: String
    /// The app id the app reports with its tokens (`pushappid`): its bundle
    /// id on iOS, its package name on Android, or any id the app chose.
    public var appID: String
    public var provider: AppProvider
    public var format: AppPayloadFormat
    /// The mustache template of `format = "template"`, read from
    /// `template` or `template_file`.
    public var template: String?
    /// The absolute path `template_file` named, when it was used.
    public var templateFile: String?
    /// APNs: the `.p8` signing key file (absolute path).
    public var keyFile: String?
    /// APNs: the signing key's 10-character key id.
    public var keyID: String?
    /// APNs: the 10-character team id of the developer account.
    public var teamID: String?
    /// APNs: the app's bundle id; VoIP pushes go to topic `<bundle_id>.voip`.
    public var bundleID: String?
    /// APNs: the sandbox environment (development builds) instead of production.
    public var sandbox: Bool
    /// FCM: the service-account JSON file (absolute path).
    public var serviceAccountFile: String?
    /// The provider's base URL instead of the real service's (a lab's
    /// `sipwake push-sink`); for `acrobits`, the gateway's send URL.
    public var url: String?
    /// `missed_*`: the push of a call that ended unanswered.
    public var missed: AppNoticeSection
    /// `answered_elsewhere_*`: the push of a call another device answered.
    public var answeredElsewhere: AppNoticeSection
    /// `sound`: the sound of this app's pushes instead of `[push] sound`;
    /// "" = none; nil = `[push] sound`.
    public var sound: String?
    /// `pn_param`: the `pn-param` value the app's RFC 8599 phones send in
    /// their REGISTER; nil = the default (APNs: `TEAMID.BUNDLE_ID`; FCM: the
    /// service account's project id).
    public var pnParam: String?

    public init(name: String, appID: String, provider: AppProvider, format: AppPayloadFormat,
                template: String? = nil, templateFile: String? = nil, keyFile: String? = nil, keyID: String? = nil,
                teamID: String? = nil, bundleID: String? = nil, sandbox: Bool = false,
                serviceAccountFile: String? = nil, url: String? = nil, missed: AppNoticeSection = AppNoticeSection(),
                answeredElsewhere: AppNoticeSection = AppNoticeSection(), sound: String? = nil) {
        self.name = name
        self.appID = appID
        self.provider = provider
        self.format = format
        self.template = template
        self.templateFile = templateFile
        self.keyFile = keyFile
        self.keyID = keyID
        self.teamID = teamID
        self.bundleID = bundleID
        self.sandbox = sandbox
        self.serviceAccountFile = serviceAccountFile
        self.url = url
        self.missed = missed
        self.answeredElsewhere = answeredElsewhere
        self.sound = sound
    }
}
