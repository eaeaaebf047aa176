"""The trust boundary (hosts, origins, the token, the content-security policy), the documentation page,
and the pools that keep play apart from teaching (a full queue, cancelled work, the health route)."""

from __future__ import annotations

import os
import signal
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from inarow.base.errors import InarowError, ServerBusyError, StoppedError, TreeTooLargeError
from inarow.engines import compiling
from inarow.engines.limits import Budget, Limits, SearchAborted, thread_limit
from inarow.sessions.workers import ClientGone, SearchPool, asking, thread_share
from inarow.web.app import Settings, create_app


def test_a_foreign_host_gets_a_403_that_says_how_to_allow_it(client: TestClient) -> None:
    response = client.get("/api/games", headers={"Host": "attacker.example:8000"})
    assert response.status_code == 403
    assert response.json() == {
        "detail": "host 'attacker.example:8000' is not allowed: this server answers to 127.0.0.1, ::1, "
        "localhost; start inarow serve with --allow-host NAME to add a name",
        "reason": "host not allowed",
    }
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
        assert client.get("/api/scores", headers={"Host": host}).status_code == 200, host


def test_a_state_changing_request_from_another_sites_page_gets_a_403(client: TestClient) -> None:
    response = client.post("/api/games", json={}, headers={"Origin": "http://attacker.example"})
    assert response.status_code == 403
    assert response.json()["detail"] == (
        "origin 'http://attacker.example' is not allowed: only pages served by this server may change games"
    )
    assert client.post("/api/games", json={}, headers={"Origin": "null"}).status_code == 403
    assert client.post("/api/games", json={}, headers={"Origin": "http://127.0.0.1"}).status_code == 201
    assert client.get("/api/games", headers={"Origin": "http://attacker.example"}).status_code == 200


def test_every_answer_forbids_framing_and_scripts_from_elsewhere(client: TestClient) -> None:
    for path in ("/", "/api/menus", "/static/js/main.js", "/api/games/nope"):
        policy = client.get(path).headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path


def test_the_labs_sandbox_may_load_the_labs_files_and_reach_nothing_else(client: TestClient) -> None:
    """The sandbox document: its own script, the worker from a blob:, Pyodide's and inarow's files from
    this server; no request to the API, no other host, framed by this server's pages only. What its worker
    loads answers an opaque origin (CORS); nothing else does."""
    answer = client.get("/lab/sandbox.html", headers={"Host": "127.0.0.1:8000"})
    assert answer.status_code == 200 and 'src="/static/js/sandbox.js"' in answer.text
    assert answer.headers["content-security-policy"] == (
        "default-src 'none'; script-src http://127.0.0.1:8000/static/js/sandbox.js "
        "http://127.0.0.1:8000/static/js/lab-worker.js http://127.0.0.1:8000/lab/pyodide/ 'wasm-unsafe-eval'; "
        "worker-src blob:; connect-src http://127.0.0.1:8000/lab/pyodide/ http://127.0.0.1:8000/lab/inarow.zip; "
        "base-uri 'none'; form-action 'none'; frame-ancestors http://127.0.0.1:8000"
    )
    assert "x-frame-options" not in answer.headers
    odd = client.get("/lab/sandbox.html", headers={"Host": "127.0.0.1:8000; script-src *"})
    assert odd.headers["content-security-policy"] == "default-src 'none'"
    for path in ("/lab/inarow.zip", "/static/js/lab-worker.js"):
        assert client.get(path).headers["access-control-allow-origin"] == "*", path
    for path in ("/", "/api/menus", "/static/js/lab.js", "/class"):
        assert "access-control-allow-origin" not in client.get(path).headers, path


def test_the_docs_page_loads_nothing_from_a_cdn_and_links_the_schema(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "<script" not in page.text and "cdn" not in page.text.lower()
    assert 'href="/openapi.json"' in page.text and "POST /api/games/{game_id}/moves" in page.text


def test_with_a_token_every_api_request_needs_it_by_header_or_by_the_cookie_from_the_url(
    tmp_path: Path,
) -> None:
    settings = Settings(db=tmp_path / "g.sqlite3", pool="inline", token="s3cret")
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        refused = client.get("/api/games")
        assert refused.status_code == 403 and refused.json()["reason"] == "token required"
        assert client.get("/api/games", headers={"X-Inarow-Token": "wrong"}).status_code == 403
        assert client.get("/api/games", headers={"X-Inarow-Token": "s3cret"}).status_code == 200
        assert client.get("/api/games", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        assert client.get("/").status_code == 403
        opened = client.get("/?token=s3cret", follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"] == "/"
        assert "HttpOnly" in opened.headers["set-cookie"] and "SameSite=Lax" in opened.headers["set-cookie"]
        assert client.get("/api/games").status_code == 200  # the cookie now
        assert client.get("/static/style.css").status_code == 200
        client.cookies.clear()
        linked = client.get(
            "/?token=s3cret&leaves=%5B%5B3%2C12%5D%2C%5B2%5D%5D&student=1", follow_redirects=False
        )
        assert (
            linked.status_code == 303
            and linked.headers["location"] == "/?leaves=%5B%5B3%2C12%5D%2C%5B2%5D%5D&student=1"
        )


def test_a_token_of_any_characters_is_refused_with_a_403_never_a_500(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "g.sqlite3", pool="inline", token="s3cret")
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        for given in ("sëcret".encode(), "密码".encode(), b"\xff\xfe", b"s3cret\x80"):
            refused = client.get("/api/games", headers={b"X-Inarow-Token": given})
            assert (refused.status_code, refused.json()["reason"]) == (403, "token required"), given
            bearer = client.get("/api/games", headers={b"Authorization": b"Bearer " + given})
            assert bearer.status_code == 403, given
    # A fresh server for the rest: eight wrong tokens from one client are as many as the guard answers 403.
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        for query in ("s%C3%ABcret", "%FF", "%ED%A0%80"):
            opened = client.get(f"/?token={query}", follow_redirects=False)
            assert opened.status_code == 403, query
        cookie = client.get("/api/games", headers={b"Cookie": "inarow_token=sëcret".encode()})
        assert cookie.status_code == 403


# ------------------------------------------------------------------------------------------- pools
def slow_search(seconds: float) -> str:
    """A search that checks its budget until ``seconds`` pass: it stops early when cancelled."""
    budget, end = Budget(Limits()), time.perf_counter() + seconds
    try:
        while time.perf_counter() < end:
            budget.check()
            time.sleep(0.01)
    except SearchAborted:
        return "stopped"
    return "finished"


def held_search(started: threading.Event, release: threading.Event) -> str:
    """A search that runs until the test releases it (at most 30 seconds), saying when it has started."""
    started.set()
    return "finished" if release.wait(30) else "never released"


def test_a_full_teaching_queue_answers_busy_with_retry_after() -> None:
    teach = SearchPool("teaching", "thread", workers=1, max_waiting=0)
    results: list[str] = []
    started, release = threading.Event(), threading.Event()
    worker = threading.Thread(target=lambda: results.append(teach.run(None, held_search, started, release)))
    worker.start()
    assert started.wait(30), "the worker never started the search"
    assert teach.health().running == 1
    with pytest.raises(ServerBusyError, match="the teaching workers are busy") as busy:
        teach.run(None, slow_search, 0.01)
    assert busy.value.retry_after == 2
    release.set()
    worker.join()
    assert results == ["finished"] and teach.health().running == 0
    teach.shutdown()


def held_threads(started: threading.Event, release: threading.Event) -> int | None:
    """:func:`held_search`, answering the threads a search may use there instead."""
    held_search(started, release)
    return thread_limit()


def test_searches_at_once_share_the_cores_between_them() -> None:
    """A search alone may use every core (a Gomoku search puts a helper thread on each); a search that
    starts while another runs, in the same pool or the other one, gets its share of them."""
    assert [thread_share(n, cores=2) for n in (1, 2, 3)] == [2, 1, 1]
    assert [thread_share(n, cores=8) for n in (1, 2, 3, 8, 9)] == [8, 4, 2, 1, 1]
    cores = os.cpu_count() or 1
    play = SearchPool("play", "thread", workers=2, max_waiting=0)
    teach = SearchPool("teaching", "thread", workers=1, max_waiting=0)
    started, release = threading.Event(), threading.Event()
    first: list[int | None] = []
    worker = threading.Thread(target=lambda: first.append(play.run(None, held_threads, started, release)))
    worker.start()
    assert started.wait(30), "the worker never started the search"
    assert play.run(None, thread_limit) == max(1, cores // 2)
    assert teach.run(None, thread_limit) == max(1, cores // 2)
    release.set()
    worker.join()
    assert first == [cores]
    assert play.run(None, thread_limit) == cores  # alone again
    play.shutdown()
    teach.shutdown()


def test_work_whose_asker_went_away_is_stopped() -> None:
    teach = SearchPool("teaching", "thread", workers=1, max_waiting=1)
    gone = threading.Event()
    threading.Timer(0.3, gone.set).start()
    start = time.perf_counter()
    with asking(gone.is_set), pytest.raises(ClientGone):
        teach.run(None, slow_search, 30.0)
    assert time.perf_counter() - start < 10
    assert teach.health().running == 0
    teach.shutdown()


def test_a_task_past_its_deadline_stops_at_its_next_budget_check() -> None:
    play = SearchPool("play", "inline")
    assert play.run(0.2, slow_search, 30.0) == "stopped"
    assert play.run(None, slow_search, 0.05) == "finished"


def test_the_health_route_says_how_the_pools_stand(client: TestClient) -> None:
    answer = client.get("/api/health").json()
    assert answer["status"] == "ok" and answer["engine_ready"] is True
    assert [(p["name"], p["state"], p["running"]) for p in answer["pools"]] == [
        ("play", "ready", 0),
        ("teaching", "ready", 0),
    ]


@contextmanager
def warm_client(tmp_path: Path) -> Iterator[TestClient]:
    """A client of an app with one worker a pool on threads, once its engine has loaded."""
    settings = Settings(db=tmp_path / "g.sqlite3", pool="thread", workers=1)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        deadline = time.monotonic() + 60
        while client.get("/api/health").json()["status"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)  # the engine loads first
        yield client


def test_the_health_route_says_busy_with_the_queue_lengths_while_work_waits(tmp_path: Path) -> None:
    """The teaching pool's one worker is held and two more tasks wait behind it: the status is busy and
    the teaching queue holds 2; once they are done, ok again with empty queues."""
    with warm_client(tmp_path) as client:
        teach = client.app.state.sessions.teach_pool  # type: ignore[attr-defined]
        release = threading.Event()
        tasks = [threading.Thread(target=teach.run, args=(None, release.wait, 30)) for _ in range(3)]
        for task in tasks:
            task.start()
        deadline = time.monotonic() + 10
        while teach.health().waiting < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        busy = client.get("/api/health").json()
        release.set()
        for task in tasks:
            task.join(10)
        done = client.get("/api/health").json()
    assert (busy["status"], busy["waiting"]) == ("busy", {"play": 0, "teaching": 2})
    assert (done["status"], done["waiting"]) == ("ok", {"play": 0, "teaching": 0})


def refuses_when_stopped(seconds: float) -> str:
    """A search that, once its budget runs out, gives up with an error of its own."""
    if slow_search(seconds) == "stopped":
        raise TreeTooLargeError("the tree was not finished")
    return "finished"


def test_an_error_caused_by_the_deadline_says_the_search_ran_out_of_time() -> None:
    play = SearchPool("play", "inline")
    with pytest.raises(StoppedError) as stopped:
        play.run(0.2, refuses_when_stopped, 30.0)
    assert str(stopped.value) == (
        "the search was stopped after 0.2 s, the server's cap on one search: ask for less (a smaller depth or "
        "board)"
    )
    assert stopped.value.reason == "the search ran out of time"


def test_the_page_and_cheap_routes_answer_while_the_engine_warms_up(tmp_path: Path) -> None:
    loaded = threading.Event()
    settings = Settings(db=tmp_path / "g.sqlite3", pool="thread", workers=1, warm_up=lambda: loaded.wait(30))
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        assert client.get("/").status_code == 200
        assert client.get("/api/games").status_code == 200
        warming = client.get("/api/health").json()
        assert (warming["status"], warming["engine_ready"]) == ("warming", False)
        loaded.set()
        deadline = time.monotonic() + 10
        while client.get("/api/health").json()["status"] != "ok" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.get("/api/health").json()["engine_ready"] is True


def test_fifty_wrong_keys_from_one_address_are_throttled_and_lock_no_one_out(tmp_path: Path) -> None:
    """Forty phones behind one classroom's NAT share an address: one of them sends 50 wrong keys. Past ten a
    minute its wrong keys are answered 429 with Retry-After; the class's link opened from the same address
    and a student who had joined before (the cookie) are answered 200 all the same."""
    settings = Settings(
        db=tmp_path / "g.sqlite3",
        pool="inline",
        token="the-class-key-0123",
        teacher_token="the-teacher-key-0123",
    )
    app = create_app(settings)
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as joined:
        assert joined.get("/?token=the-class-key-0123").status_code == 200  # joined: the cookie is set
        guesser = TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5001))
        said = [
            guesser.get("/api/games", headers={"X-Inarow-Token": f"guess-{n}"}).status_code for n in range(50)
        ]
        assert said[:10] == [403] * 10 and set(said[10:]) == {429}
        held = guesser.get("/?token=guess-51", headers={"Accept": "text/html"})
        assert held.status_code == 429 and int(held.headers["retry-after"]) > 0
        assert "too many wrong keys" in held.text
        newcomer = TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5002))
        opened = newcomer.get("/?token=the-class-key-0123&student=1")
        assert opened.status_code == 200 and str(opened.url).endswith("/?student=1")
        assert newcomer.get("/api/games").status_code == 200
        assert joined.get("/api/games").status_code == 200
        assert (
            guesser.get("/api/games", headers={"X-Inarow-Token": "the-teacher-key-0123"}).status_code == 200
        )
        assert guesser.get("/static/style.css").status_code == 200  # the page's files are no guess


def test_a_token_shorter_than_sixteen_characters_is_refused_at_start_with_the_reason() -> None:
    from typer.testing import CliRunner

    from inarow.cli import app
    from inarow.web.server import check_token

    for short in ("a", "s3cret-token"):
        with pytest.raises(InarowError, match=r"at least 16 characters"):
            check_token(short)
    check_token("a-long-enough-token")
    said = CliRunner().invoke(app, ["--lang", "en", "serve", "--host", "0.0.0.0", "--token", "a"])
    assert said.exit_code == 2 and said.output.startswith("error: invalid token 'a': a token has at least 16")


def compiles_for(seconds: float) -> str:
    """A task that spends ``seconds`` compiling an engine (as a first move on a fresh install does)."""
    with compiling.Unit("inarow_test_unit", "").compiling():
        time.sleep(seconds)
    return "compiled"


def test_a_request_without_a_token_is_no_guess(tmp_path: Path) -> None:
    """A page opened without its token (a reload, a bookmark) is refused, but never counts as a guess."""
    settings = Settings(db=tmp_path / "g.sqlite3", pool="inline", token="a-long-enough-token")
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        assert {client.get("/api/games").status_code for _ in range(30)} == {403}
        assert client.get("/api/games", headers={"X-Inarow-Token": "a-long-enough-token"}).status_code == 200


def test_health_says_busy_and_lists_a_job_running_past_its_deadline(tmp_path: Path) -> None:
    """A task that never checks its budget (as pasted code asleep): past its 0.2 s the status is busy and
    the job is listed with its age; the pool's own grace is made long so that it is not stopped yet."""
    with warm_client(tmp_path) as client:
        teach = client.app.state.sessions.teach_pool  # type: ignore[attr-defined]
        teach.grace = 600.0
        release = threading.Event()
        task = threading.Thread(target=teach.run, args=(0.2, release.wait, 30))
        task.start()
        deadline = time.monotonic() + 10
        while not any(job.overdue for job in teach.health().jobs) and time.monotonic() < deadline:
            time.sleep(0.01)
        busy = client.get("/api/health").json()
        release.set()
        task.join(10)
        done = client.get("/api/health").json()
    assert busy["status"] == "busy" and busy["waiting"] == {"play": 0, "teaching": 0}
    [job] = busy["pools"][1]["jobs"]
    assert (job["task"], job["deadline"], job["overdue"]) == ("wait", 0.2, True) and job["age"] > 0.2
    assert done["status"] == "ok" and done["pools"][1]["jobs"] == []


@pytest.mark.slow
def test_a_task_asleep_past_its_deadline_is_stopped_its_worker_replaced_and_the_one_behind_it_answered() -> (
    None
):
    """Asleep, the task never sees its budget: the pool stops waiting for it past its deadline and the
    grace, kills its worker, and the task queued behind it runs on the new worker."""
    pool = SearchPool("teaching", "process", workers=1, max_waiting=2, warm=False, grace=0.5)
    try:
        first_worker = pool.run(None, os.getpid)  # the worker is up before the clock matters
        answers: dict[str, object] = {}

        def ask(name: str, seconds: float, fn: object, *args: object) -> None:
            try:
                answers[name] = pool.run(seconds, fn, *args)  # type: ignore[arg-type]
            except StoppedError as error:
                answers[name] = error

        asleep = threading.Thread(target=ask, args=("asleep", 1.0, time.sleep, 60))
        asleep.start()
        deadline = time.monotonic() + 10
        while pool.health().running < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        behind = threading.Thread(target=ask, args=("behind", 30.0, os.getpid))
        behind.start()
        asleep.join(60)
        behind.join(60)
        assert isinstance(answers["asleep"], StoppedError)
        assert str(answers["asleep"]).startswith("the search was stopped after 1 s, the server's cap")
        assert isinstance(answers["behind"], int) and answers["behind"] != first_worker
        assert pool.replaced == 1 and pool.health().jobs == ()
    finally:
        pool.shutdown()


@pytest.mark.slow
def test_time_spent_compiling_an_engine_does_not_count_against_a_task_s_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(compiling, "kernel_folder", lambda: tmp_path)
    pool = SearchPool("play", "thread", workers=1, max_waiting=0, warm=False, grace=0.2)
    try:
        assert pool.run(0.3, compiles_for, 1.5) == "compiled"
        with pytest.raises(StoppedError):
            pool.run(0.3, time.sleep, 1.5)
    finally:
        pool.shutdown()


def test_a_process_pool_starts_when_the_resource_tracker_dies_as_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server under the heaviest load once exited at start: the resource tracker that the pool's first
    lock launched had died before the lock could register with it (``BrokenPipeError``). The pool starts
    all the same, on a tracker started again."""
    tracker: Any = resource_tracker._resource_tracker  # its pid is private
    launch = tracker.ensure_running
    deaths: list[int] = []

    def ensure_running_then_die() -> None:
        launch()
        if not deaths:  # the first launch dies at once, as it did under load
            pid = tracker._pid
            assert pid is not None
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            deaths.append(pid)

    monkeypatch.setattr(tracker, "ensure_running", ensure_running_then_die)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "resource_tracker: process died unexpectedly, relaunching"
        pool = SearchPool("play", "process", workers=1, warm=False)
    try:
        assert deaths, "the tracker never died: the test did not reach the failure"
        assert tracker._pid not in (None, *deaths)
        assert pool.run(30.0, os.getpid) != os.getpid()
        assert pool.health().state == "ready"
    finally:
        pool.shutdown()
