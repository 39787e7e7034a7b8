/// What the service worker shows for a page never opened on this device while the Grove it belongs
/// to cannot be reached: it says plainly what works offline.
struct OfflinePage: Encodable {
    var title = "Offline"
}
