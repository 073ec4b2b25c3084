// Realistic values of two phones' push registrations, shared by the tests of
// the tuple store and of `sipwake tuples`: the selectors the Acrobits app
// reports, APNs VoIP tokens (64 hex characters), an FCM token (~160 characters
// of `<instance id>:APA91b<base64url>`) and the app ids.

public let iPhoneSelector = "12869E0E6E553673C54F29105A0647204C416A2A:7C3A0D14"
public let pixelSelector = "9F1B7C44A0D2E35B6C8819FE0A7D2C11B3E4F5A6:1E2D3C4B"
public let voipToken = "5f0e4c6a9b1d2e3f40516273849a5b6c7d8e9fa0b1c2d3e4f5061728394a5b6c"
public let apnsToken = "c7b1e2d3f4a5069788a9bacbdcedfe0f1a2b3c4d5e6f708192a3b4c5d6e7f809"
public let fcmToken = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx4xvMEVvmeLqgFhhFlTuBgm7CRP_z31rv9QXf-l3f7k6-8mKqsB0ZYTJw_4ZqE2Y5wqL2fM8vKQvYxUe7sFfRDm0x0qJmTn3D5AKB2cNJ"
public let voipApp = "com.acrobits.softphone.voip"
public let app = "com.acrobits.softphone"
