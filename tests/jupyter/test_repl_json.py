"""`taxpro repl --json` over pipes, as a notebook kernel or another program drives it (docs/REPL_JSON.md).

Each test starts the installed binary and speaks the protocol line by line; figures are compared with what
`taxpro eval` and `taxpro explain --json` print for the same expressions, so the JSON mode is held to the other
front ends rather than to numbers written here.
"""

from __future__ import annotations

import json
import subprocess
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from jupyter_support import SLOW_EXPRESSION, SLOW_FORMULAS, JSONRepl, eval_taxpro


def test_ready_event_describes_the_language_and_the_session(repl: JSONRepl, taxpro: str) -> None:
    info = repl.ready["info"]
    version = subprocess.run([taxpro, "--version"], capture_output=True, text=True).stdout
    assert info["version"] in version
    assert (info["name"], info["language"], info["fileExtension"]) == ("TaxPro", "taxpro", ".tax")
    assert info["year"] == max(info["years"])
    names = [command["name"] for command in info["commands"]]
    assert {"help", "explain", "year", "load", "plot", "ask", "quit"} <= set(names)
    # The same commands :help lists.
    overview = repl.execute(":help")["outputs"][0]["text"]
    assert all(f":{name}" in overview for name in names)


def test_values_lets_formulas_and_ans_are_the_repls(repl: JSONRepl, taxpro: str) -> None:
    repl.execute(":year 2025")
    reply = repl.execute("let income = $85,000")
    assert reply["status"] == "ok"
    [definition] = reply["outputs"][0]["definitions"]
    assert definition["name"] == "income"
    assert definition["value"] == {"type": "Money", "text": "$85,000.00", "exact": "85000"}
    expected = eval_taxpro(taxpro, "tax(ON.income_tax, $85,000)", "--year", "2025")
    reply = repl.execute("tax(ON.income_tax, income)")
    [output] = reply["outputs"]
    assert output["kind"] == "value"
    assert output["text"] == expected
    assert output["value"]["type"] == "Money"
    assert repl.value("ans * 2") == eval_taxpro(taxpro, "tax(ON.income_tax, $85,000) * 2", "--year", "2025")
    defined = repl.execute("formula after_tax(x: Money): Money =\n  x - combined_tax(x, ON)")
    assert defined["outputs"][0]["definitions"][0]["kind"] == "formula"
    assert repl.value("after_tax(income)") == eval_taxpro(
        taxpro, "$85,000 - combined_tax($85,000, ON)", "--year", "2025")


def test_the_year_changes_the_figures(repl: JSONRepl, taxpro: str) -> None:
    for year in (2025, 2026):
        reply = repl.execute(f":year {year}\nON.basic_personal_amount")
        assert reply["year"] == year
        assert reply["outputs"][-1]["text"] == eval_taxpro(taxpro, "ON.basic_personal_amount", "--year", str(year))
    assert repl.execute(":year 1999")["status"] == "error"


def test_errors_leave_nothing_behind(repl: JSONRepl) -> None:
    repl.execute("let x = $5")
    failed = repl.execute("let x = $1 * $1")
    assert failed["status"] == "error"
    [output] = failed["outputs"]
    assert output["kind"] == "diagnostics"
    assert output["diagnostics"][0]["code"] == "type-mismatch"
    assert repl.value("x") == "$5.00"
    assert repl.execute("formula bad(a: Money): Money = a * a")["status"] == "error"
    assert repl.execute("bad($1)")["status"] == "error"


def test_a_cell_runs_line_by_line_and_stops_at_its_first_error(repl: JSONRepl) -> None:
    reply = repl.execute("let a = 2\n\na * 3\n1200 + $5\nlet b = 1")
    assert reply["status"] == "error"
    assert [output["kind"] for output in reply["outputs"]] == ["definitions", "value", "diagnostics"]
    diagnostic = reply["outputs"][2]["diagnostics"][0]
    # Lines are the cell's; the rendering is the caret rendering of the terminal.
    assert diagnostic["location"]["line"] == 4
    assert reply["outputs"][2]["text"].startswith("<input>:4:1: error[type-mismatch]: cannot add Number and Money\n4 | 1200 + $5\n")
    assert diagnostic["fixes"][0]["edits"][0]["text"] == "$1200"
    assert repl.execute("b")["status"] == "error"
    going_on = repl.execute("1200 + $5\nlet b = 1", stopOnError=False)
    assert [output["kind"] for output in going_on["outputs"]] == ["diagnostics", "definitions"]


def test_explain_gives_the_explain_json_object(repl: JSONRepl, taxpro: str) -> None:
    expression = "rrsp_refund($5,000, $85,000, ON)"
    reply = repl.execute(f":year 2025\n:explain {expression}")
    output = reply["outputs"][-1]
    assert output["kind"] == "explanation"
    printed = subprocess.run(
        [taxpro, "explain", "--json", "--year", "2025", expression], capture_output=True, text=True, check=True
    ).stdout
    expected = json.loads(printed)

    def without_places(value):
        # The command line names its expression <expr>, the REPL <input>; everything else is the same.
        if isinstance(value, dict):
            return {key: without_places(item) for key, item in value.items() if key != "location"}
        if isinstance(value, list):
            return [without_places(item) for item in value]
        return value

    assert without_places(output["explanation"]) == without_places(expected)
    assert output["text"].startswith(f"{expression} = {expected['value']['text']}")


def test_plot_gives_an_svg_image(repl: JSONRepl) -> None:
    reply = repl.execute(":plot tax(ON.income_tax, income) over income from $0 to $250,000")
    assert reply["status"] == "ok"
    [output] = reply["outputs"]
    assert output["kind"] == "image"
    assert output["mimeType"] == "image/svg+xml"
    root = ElementTree.fromstring(output["data"].split("?>", 1)[-1])
    assert root.tag.endswith("svg")
    assert "income" in output["text"]


def test_load_reads_files_relative_to_the_working_folder(taxpro: str, tmp_path: Path) -> None:
    (tmp_path / "mine.tax").write_text("formula double(x: Money): Money = x * 2\n")
    (tmp_path / "broken.tax").write_text("formula broken(x: Money): Money = x * x\n")
    client = JSONRepl(taxpro, "mine.tax", cwd=tmp_path)
    try:
        assert "loaded mine.tax: 1 formula" in client.ready["outputs"][0]["text"]
        assert client.value("double($21)") == "$42.00"
        broken = client.execute(":load broken.tax")
        assert broken["status"] == "error"
        assert client.execute("broken($1)")["status"] == "error"
        assert client.value("double($1)") == "$2.00"
    finally:
        client.close()


def test_completion(repl: JSONRepl) -> None:
    reply = repl.request({"request": "complete", "code": "tax(ON.income_t", "cursor": 15})
    assert (reply["matches"], reply["start"], reply["end"]) == (["income_tax"], 7, 15)
    assert repl.request({"request": "complete", "code": ":exp"})["matches"] == [":explain"]
    repl.execute("let my_income = $1")
    reply = repl.request({"request": "complete", "code": "1 +\n  my_in"})
    assert "my_income" in reply["matches"]
    assert reply["start"] == 6
    # Offsets are Unicode scalars: what Python's str counts.
    code = '"Québec" == "x"\nON.basic_pers'
    reply = repl.request({"request": "complete", "code": code, "cursor": len(code)})
    assert reply["matches"] == ["basic_personal_amount"]
    assert code[reply["start"]:reply["end"]] == "basic_pers"


def test_inspection_is_the_hover_with_the_years_value(repl: JSONRepl, taxpro: str) -> None:
    reply = repl.request({"request": "inspect", "code": "provincial_tax($85,000)", "cursor": 4})
    assert reply["found"]
    assert reply["code"].startswith("formula provincial_tax(income: Money")
    assert reply["documentation"]["summary"]
    assert reply["markdown"].startswith("```taxpro\nformula provincial_tax(")
    repl.execute(":year 2025")
    reply = repl.request({"request": "inspect", "code": "ON.credit_rate", "cursor": 5})
    assert reply["value"] == {
        "caption": "ON.credit_rate in 2025",
        "lines": [eval_taxpro(taxpro, "ON.credit_rate", "--year", "2025")],
    }
    assert reply["text"].startswith("ON.credit_rate: Rate\nON.credit_rate in 2025: ")
    assert not repl.request({"request": "inspect", "code": "1 + 2", "cursor": 2})["found"]
    command = repl.request({"request": "inspect", "code": ":explain x", "cursor": 2})
    assert command["code"] == ":explain [full] EXPR"


def test_is_complete(repl: JSONRepl) -> None:
    def completeness(code: str) -> str:
        return repl.request({"request": "isComplete", "code": code})["completeness"]

    assert completeness("tax(ON.income_tax, $85,000)") == "complete"
    assert completeness("max($1,") == "incomplete"
    assert completeness("formula f(x: Money): Money =") == "incomplete"
    assert completeness("1 +* 2") == "invalid"
    assert completeness(":nonsense") == "invalid"
    assert repl.request({"request": "isComplete", "code": "formula f(x: Money): Money ="})["indent"] == "  "


def test_interrupting_with_sigint_stops_the_evaluation_and_the_session_lives(repl: JSONRepl) -> None:
    assert repl.execute("let kept = $7\n" + SLOW_FORMULAS)["status"] == "ok"
    started = repl.send({"request": "execute", "code": SLOW_EXPRESSION})
    time.sleep(0.5)
    sent = time.monotonic()
    repl.interrupt_with_signal()
    reply = repl.receive(timeout=5)
    elapsed = time.monotonic() - sent
    assert reply["id"] == started
    assert reply["status"] == "cancelled"
    assert reply["outputs"][-1]["kind"] == "cancelled"
    assert elapsed < 1.0, f"the interruption took {elapsed:.2f} s"
    assert repl.value("kept + $1") == "$8.00"


def test_interrupt_request_stops_the_request_it_names(repl: JSONRepl) -> None:
    repl.execute(SLOW_FORMULAS)
    running = repl.send({"request": "execute", "code": SLOW_EXPRESSION})
    queued = repl.send({"request": "execute", "code": "1 + 1"})
    time.sleep(0.5)
    sent = time.monotonic()
    # The queued one first: it is answered without running; then the running one.
    replies = {}
    interrupt_queued = repl.send({"request": "interrupt", "target": queued})
    interrupt_running = repl.send({"request": "interrupt", "target": running})
    while len(replies) < 4:
        message = repl.receive(timeout=5)
        replies[message["id"]] = message
    assert time.monotonic() - sent < 1.0
    assert replies[interrupt_queued]["interrupted"] and replies[interrupt_running]["interrupted"]
    assert replies[running]["status"] == "cancelled"
    assert replies[queued]["status"] == "cancelled"
    nothing = repl.request({"request": "interrupt", "target": running})
    assert nothing["interrupted"] is False
    # An interruption is never left over for the next request.
    assert repl.value("d10($1)") == "$2,048.00"


def test_ask_reads_its_answers_through_input_events(repl: JSONRepl, taxpro: str) -> None:
    repl.execute(":year 2025")
    asking = repl.send({"request": "execute", "code": ":ask rrsp_refund"})
    answers = iter(["$5,000", "$85,000", "QC", "n"])
    prompts = []
    while True:
        message = repl.receive()
        if message.get("event") == "input":
            assert message["id"] == asking
            prompts.append(message["prompt"].strip())
            repl.send({"request": "input", "target": asking, "line": next(answers)})
        elif message.get("id") == asking:
            break
    assert prompts[:2] == ["contribution:", "income:"]
    expected = eval_taxpro(taxpro, "rrsp_refund($5,000, $85,000, QC)", "--year", "2025")
    assert any(f"= {expected}" in output["text"] for output in message["outputs"])
    # Answering with null ends the input, like Ctrl-D: the form is left.
    asking = repl.send({"request": "execute", "code": ":ask rrsp_refund"})
    while (message := repl.receive()).get("id") != asking or "status" not in message:
        if message.get("event") == "input":
            repl.send({"request": "input", "target": asking, "line": None})
    assert any("the form was left" in output["text"] for output in message["outputs"])


def test_bad_requests_get_invalid_replies_and_the_process_goes_on(repl: JSONRepl) -> None:
    repl.send_line("this is not json")
    assert repl.receive()["status"] == "invalid"
    for request, message in [
        ({"id": 5, "request": "dance"}, "unknown request"),
        ({"id": 6, "request": "execute"}, "missing field 'code'"),
        ({"id": 7, "request": "execute", "code": 12}, "field 'code'"),
    ]:
        repl.send(request)
        reply = repl.receive()
        assert (reply["id"], reply["status"]) == (request["id"], "invalid")
        assert message in reply["message"]
    assert repl.value("0.1 + 0.2") == "0.3"


def test_end_of_input_ends_the_process_after_its_replies(taxpro: str) -> None:
    requests = "".join(
        json.dumps({"id": index, "request": "execute", "code": code}) + "\n"
        for index, code in enumerate(["$1,234.56 * 13%", "0.1 + 0.2"])
    )
    result = subprocess.run([taxpro, "repl", "--json"], input=requests, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line.get("event") for line in lines] == ["ready", None, None]
    assert [line["outputs"][0]["text"] for line in lines[1:]] == ["$160.49", "0.3"]


def test_a_command_typed_as_a_name_gets_a_note_without_the_terminals_keys(repl: JSONRepl) -> None:
    # A notebook has no prompt for Ctrl-D to leave; ':quit' is what ends the session.
    reply = repl.execute("quit")
    assert reply["status"] == "error"
    notes = [note["message"] for note in reply["outputs"][0]["diagnostics"][0]["notes"]]
    assert notes == ["to leave: :quit"]
    assert "Ctrl-D" not in reply["outputs"][0]["text"]


def test_quit_ends_the_process(repl: JSONRepl) -> None:
    reply = repl.execute(":quit")
    assert reply["quit"] is True
    assert repl.process.wait(timeout=10) == 0
