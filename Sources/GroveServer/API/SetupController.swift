import Foundation
import GroveCore
import GroveStore
import Hummingbird

/// `/api/v1/setup`: the first-run setup every face offers.
struct SetupController {
    let database: AppDatabase

    struct State: Encodable, Sendable { var setupNeeded: Bool }

    func addRoutes(to api: APIRouter) {
        api.get("setup", cache: .data, use: state)
        api.post("setup", use: complete)
        api.post("setup/skip", use: skip)
    }

    /// `GET /setup`: whether the first-run setup is still to do.
    @Sendable func state(_ request: Request, context: GroveRequestContext) throws -> JSON<State> {
        JSON(State(setupNeeded: try database.setup.isNeeded()))
    }

    /// `POST /setup`: the choices (each optional), applied together or not at all.
    @Sendable func complete(_ request: Request, context: GroveRequestContext) async throws -> JSON<State> {
        let setup = try await request.decode(as: FirstRunSetup.self, context: context)
        try database.setup.complete(setup)
        return JSON(State(setupNeeded: try database.setup.isNeeded()))
    }

    /// `POST /setup/skip`: never offered again, nothing changed.
    @Sendable func skip(_ request: Request, context: GroveRequestContext) throws -> JSON<State> {
        try database.setup.complete(FirstRunSetup(), skip: true)
        return JSON(State(setupNeeded: try database.setup.isNeeded()))
    }
}
