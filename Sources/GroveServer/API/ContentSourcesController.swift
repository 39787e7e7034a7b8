import Foundation
import GroveCore
import GroveRemote
import GroveStore
import Hummingbird

/// `/api/v1/pause/content-sources`: content packs fetched over HTTP(S) (seed 003's content sync).
struct ContentSourcesController {
    let database: AppDatabase
    let refresher: ContentRefresher

    struct AddInput: Decodable { var url: String }
    struct AddOutput: Encodable, Sendable { var source: ContentSource; var refresh: ContentRefreshJSON }
    struct RefreshInput: Decodable { var url: String? }

    func addRoutes(to api: APIRouter) {
        api.get("pause/content-sources", cache: .data, use: list)
        api.post("pause/content-sources", use: add)
        api.delete("pause/content-sources", use: remove)
        api.post("pause/content-sources/refresh", use: refresh)
    }

    /// `GET /pause/content-sources`, oldest first.
    @Sendable func list(_ request: Request, context: GroveRequestContext) throws -> JSON<[ContentSource]> {
        JSON(try database.content.sources())
    }

    /// `POST /pause/content-sources {url}`: adds the source and fetches it at once; 201 when its pack
    /// was fetched and read, else 422 naming `url` and why, with nothing kept.
    @Sendable func add(_ request: Request, context: GroveRequestContext) async throws -> JSON<AddOutput> {
        let input = try await request.decode(as: AddInput.self, context: context)
        let outcome = try await refresher.add(url: input.url)
        guard let current = try database.content.source(url: outcome.url) else {
            throw APIError.notFound("The source was removed meanwhile")
        }
        return JSON(AddOutput(source: current, refresh: ContentRefreshJSON(outcome)), status: .created)
    }

    /// `DELETE /pause/content-sources?url=`: the source and its items (items a pause showed are
    /// kept for that history, never shown again).
    @Sendable func remove(_ request: Request, context: GroveRequestContext) async throws -> JSON<ContentPackReport> {
        guard let url = request.queryString("url"), !url.isEmpty else {
            throw APIError.badRequest(field: "url", detail: "url is required: the source to remove")
        }
        return JSON(try database.content.removeSource(url: url))
    }

    /// `POST /pause/content-sources/refresh {url?}`: fetches one source, or every source, now.
    @Sendable func refresh(_ request: Request, context: GroveRequestContext) async throws -> JSON<[ContentRefreshJSON]> {
        let input = try await request.decodeIfPresent(RefreshInput.self, context: context)
        let outcomes = if let url = input?.url { [try await refresher.refresh(url: url)] } else { try await refresher.refresh(force: true) }
        return JSON(outcomes.map(ContentRefreshJSON.init))
    }
}
