import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/review`: the weekly review across the four rooms.
struct ReviewController {
    let database: AppDatabase

    func addRoutes(to api: APIRouter) {
        api.get("review", cache: .day, use: review)
    }

    /// `GET /review?week=2026-W47` (or a day in the week, `this`, `last`; this week by default).
    @Sendable func review(_ request: Request, context: GroveRequestContext) throws -> JSON<WeeklyReview> {
        let week = request.queryString("week")
        return JSON(try APIError.parameter { try database.review.week(named: week) })
    }
}
