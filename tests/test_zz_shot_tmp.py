import pytest, requests
from tests.table import Room, TABLET
pytestmark = pytest.mark.browser

def test_shot(server, browser):
    room = Room(server, players=("Ann", "Ben", "Cat", "Dan"))
    room.act("host", "start")
    requests.post(f"{server.url}/api/v1/rooms/{room.code}/seats", json={"name": "Eve"}, timeout=10)
    requests.post(f"{server.url}/api/v1/rooms/{room.code}/seats", json={"name": "Ann"}, timeout=10)
    host = room.open_host(browser)
    host.wait_for_selector(".requests")
    host.screenshot(path="/tmp/shots/requests-claiming.png")
    for n, p in zip(("Ann","Ben","Cat","Dan"), (1,2,3,4)):
        room.act(n, "claim", position=p)
    for n in ("Ben","Cat","Dan"):
        room.act(n, "vote", position=1)
    host.wait_for_selector("text=Add as a new player >> visible=true")
    host.wait_for_timeout(500)
    host.screenshot(path="/tmp/shots/requests-revealed.png")
    host.click("#pop-language summary")
    host.wait_for_timeout(300)
    host.screenshot(path="/tmp/shots/language-pop.png")
