import Foundation

extension NamedTimer {
    /// Seed 001's sample timers with their to-dos, for demos and tests. Ids are fixed so that loading
    /// the samples twice changes nothing.
    public static func sampleData(createdAt: Date) -> [NamedTimer] {
        func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-0000000001%02d", n))! }
        func todos(_ base: Int, _ texts: [String]) -> [TodoItem] {
            texts.enumerated().map { TodoItem(id: id(base + $0.offset), text: $0.element, sortOrder: $0.offset, createdAt: createdAt) }
        }
        return [
            NamedTimer(
                id: id(1), name: "Workout", durationInSeconds: 1500, icon: "figure.run", colorHex: "#FF3B30",
                notes: "Remember to hydrate!", createdAt: createdAt,
                todoItems: todos(10, ["Warm up 5 minutes", "20 push-ups", "30 squats", "Plank 1 minute", "Cool down stretch"])),
            NamedTimer(
                id: id(2), name: "Study Session", durationInSeconds: 2700, icon: "book.fill", colorHex: "#007AFF",
                createdAt: createdAt, todoItems: todos(20, ["Review chapter 3", "Complete practice problems"])),
            NamedTimer(
                id: id(3), name: "Coffee Break", durationInSeconds: 600, icon: "cup.and.saucer.fill", colorHex: "#8E8E93",
                createdAt: createdAt),
            NamedTimer(
                id: id(4), name: "Meditation", durationInSeconds: 1200, icon: "sparkles", colorHex: "#5856D6",
                notes: "Focus on breathing", createdAt: createdAt),
        ]
    }
}
