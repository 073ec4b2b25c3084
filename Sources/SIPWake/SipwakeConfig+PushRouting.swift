import Config
import Model

extension SipwakeConfig {
    /// Which provider reaches each app id: the listed apps' own, and the
    /// Acrobits gateway for the others unless `[push] gateway_url` is "".
    public var pushRouting: PushRouting {
        var apps: [String: String] = [:]
        for app in self.apps { apps[app.appID] = app.provider.rawValue }
        return PushRouting(apps: apps, gatewayProvider: push.gatewayURL.isEmpty ? nil : DeviceTuple.defaultProvider)
    }

    /// Per listed app id, the end-of-call events its `[apps.NAME]` table
    /// switched off (`missed_notification`, `answered_elsewhere_notification`
    /// = false); apps that switched none off are not in it.
    public var switchedOffEndPushes: [String: Set<PushEvent>] {
        var switchedOff: [String: Set<PushEvent>] = [:]
        for app in apps {
            var events: Set<PushEvent> = []
            if !app.missed.enabled { events.insert(.missed) }
            if !app.answeredElsewhere.enabled { events.insert(.answeredElsewhere) }
            if !events.isEmpty { switchedOff[app.appID] = events }
        }
        return switchedOff
    }

    /// Per listed app id, its own `sound` ("" = none); apps without one use `[push] sound`.
    public var appSounds: [String: String] {
        var sounds: [String: String] = [:]
        for app in apps { if let sound = app.sound { sounds[app.appID] = sound } }
        return sounds
    }

    /// The sound of pushes to `appID`: its app's own, else `[push] sound`; nil for none.
    public func pushSound(forApp appID: String) -> String? {
        let sound = apps.first { $0.appID == appID }?.sound ?? push.sound
        return sound.isEmpty ? nil : sound
    }
}
