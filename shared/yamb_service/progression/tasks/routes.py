"""The weekly tasks' routes (E6) of progression's HTTP API (functions/progression)."""

from yamb.progression.task_messages import ClaimRequest, ClaimView, TasksView

from yamb_service.edge.http_api import (
    HttpApi,
    Response,
    Routes,
    body,
    json_reply,
    player_id,
    reader_language,
)
from yamb_service.progression.wiring import task_service

router = HttpApi()
routes = Routes(router)


@routes.get("/me/tasks", "The week's tasks, their progress and the bonus", TasksView)
def tasks() -> Response[str]:
    event = router.current_event
    return json_reply(200, task_service().view(player_id(event), reader_language(event)))


@routes.post(
    "/me/tasks/{taskId}/claim",
    "A finished task's reward claimed",
    ClaimView,
    request=ClaimRequest,
    request_required=False,
)
def claim(task_id: str) -> Response[str]:
    event = router.current_event
    request = body(event, ClaimRequest)
    return json_reply(200, task_service().claim(player_id(event), task_id, request.week))
