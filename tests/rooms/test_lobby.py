"""The lobby model alone: no database, no actor; each command either changes the draft and lists its
writes, or refuses with a code and leaves it as it was."""

from __future__ import annotations

from typing import Any

import pytest

from app.db.lobby_writes import DropMember, PutMember, PutRoom
from app.engines import get_engine
from app.rooms.errors import RoomError
from app.rooms.lobby import Lobby, validate_options


def slap_lobby() -> Lobby:
    lobby = Lobby(get_engine("slap"), options={}, public=True, host_id="ana", status="lobby")
    lobby.join_seat("ana", "Ana", None, {})
    lobby.writes.clear()
    return lobby


def shape(lobby: Lobby) -> dict[str, Any]:
    return {
        "members": {p: (m.name, m.role, m.seat, m.prefs, m.bot) for p, m in lobby.members.items()},
        "options": lobby.options,
        "public": lobby.public,
        "host": lobby.host_id,
        "status": lobby.status,
    }


def refused(lobby: Lobby, command: Any) -> RoomError:
    """Run ``command`` on a draft; it must refuse and leave both the lobby and the draft untouched."""
    before = shape(lobby)
    draft = lobby.copy()
    with pytest.raises(RoomError) as info:
        command(draft)
    assert shape(lobby) == before
    return info.value


def test_a_seat_choice_is_checked_against_the_games_prefs() -> None:
    lobby = slap_lobby()
    err = refused(lobby, lambda d: d.join_seat("bo", "Bo", None, {"colour": 10**30}))
    assert (err.code, err.status) == ("BAD_PREFS", 422)
    assert refused(lobby, lambda d: d.join_seat("bo", "Bo", None, {"colour": "X"})).code == "BAD_PREFS"
    assert refused(lobby, lambda d: d.join_seat("bo", "Bo", None, {"hat": "red"})).code == "BAD_PREFS"


def test_a_valid_colour_is_kept_and_written() -> None:
    lobby = slap_lobby()
    member = lobby.join_seat("bo", "Bo", None, {"colour": "G"})
    assert (member.seat, member.prefs) == (1, {"colour": "G"})
    assert lobby.writes == [PutMember("bo", "seat", 1, {"colour": "G"})]


def test_a_game_without_seat_choices_refuses_any() -> None:
    lobby = Lobby(get_engine("kuuduk"), options={}, public=True, host_id="ana", status="lobby")
    assert refused(lobby, lambda d: d.join_seat("ana", "Ana", None, {"colour": "Y"})).code == "BAD_PREFS"


def test_a_draft_does_not_touch_the_lobby_it_was_copied_from() -> None:
    lobby = slap_lobby()
    before = shape(lobby)
    draft = lobby.copy()
    draft.join_seat("bo", "Bo", 3, {"colour": "B"})
    draft.configure("ana", {"rounds": 2}, False)
    draft.members["ana"].prefs["colour"] = "P"
    assert shape(lobby) == before and lobby.writes == []


def test_options_are_validated_and_merged() -> None:
    lobby = slap_lobby()
    lobby.configure("ana", {"rounds": 2}, None)
    assert lobby.options["rounds"] == 2
    assert lobby.writes == [PutRoom(options=lobby.options, public=True)]
    assert refused(lobby, lambda d: d.configure("ana", {"rounds": "many"}, None)).code == "BAD_OPTIONS"


def test_an_options_error_names_the_option_and_not_the_value() -> None:
    with pytest.raises(RoomError) as info:
        validate_options(get_engine("slap"), {"rounds": "x" * 500})
    err = info.value
    assert err.code == "BAD_OPTIONS" and "rounds" in err.message and "x" * 50 not in err.message


def test_only_the_host_configures_removes_and_starts() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    for command in (
        lambda d: d.configure("bo", {}, True),
        lambda d: d.remove_player("bo", "ana"),
        lambda d: d.start("bo"),
        lambda d: d.seat_bot("bo", None),
    ):
        assert refused(lobby, command).code == "NOT_HOST"


def test_leaving_hands_the_host_over_to_the_lowest_seat() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", 2, {})
    lobby.watch("cy", "Cy")
    lobby.writes.clear()
    assert lobby.leave("ana") is True
    assert lobby.host_id == "bo"
    assert lobby.writes == [DropMember("ana"), PutRoom(host_id="bo")]


def test_a_seat_in_a_running_game_is_kept_when_its_player_leaves() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.start("ana")
    lobby.writes.clear()
    assert lobby.leave("bo") is False
    assert lobby.members["bo"].seat == 1 and lobby.members["bo"].role == "left"
    assert lobby.writes == [PutMember("bo", "left", 1, {})]


def test_a_player_who_left_takes_their_own_seat_back() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.start("ana")
    lobby.leave("bo")
    lobby.writes.clear()
    member = lobby.join_seat("bo", "Bo", None, {})
    assert (member.role, member.seat) == ("seat", 1)
    assert lobby.writes == [PutMember("bo", "seat", 1, {})]


def test_a_player_who_left_keeps_the_seat_to_take_back_when_asking_to_watch() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.start("ana")
    lobby.leave("bo")
    lobby.writes.clear()
    member = lobby.watch("bo", "Bo")
    assert (member.role, member.seat, lobby.writes) == ("left", 1, [])


def test_the_host_leaving_a_running_game_hands_the_host_to_a_player_still_seated() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.start("ana")
    assert lobby.leave("ana") is False
    assert lobby.host_id == "bo"


def test_only_a_player_who_left_can_be_removed_during_a_game() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.join_seat("cy", "Cy", None, {})
    lobby.start("ana")
    with pytest.raises(RoomError) as refused:
        lobby.remove_player("ana", "bo")
    assert refused.value.code == "GAME_RUNNING"
    lobby.leave("bo")
    lobby.remove_player("ana", "bo")
    assert "bo" not in lobby.members


def test_whoever_left_gives_up_the_seat_when_the_game_finishes() -> None:
    lobby = slap_lobby()
    lobby.join_seat("bo", "Bo", None, {})
    lobby.start("ana")
    lobby.leave("bo")
    lobby.writes.clear()
    lobby.finish()
    bo = lobby.members["bo"]
    assert (bo.role, bo.seat, lobby.status) == ("spectator", None, "finished")
    assert lobby.writes == [PutMember("bo", "spectator", None, {}), PutRoom(status="finished")]


def test_starting_renumbers_the_seats_from_zero_freeing_each_seat_first() -> None:
    lobby = Lobby(get_engine("slap"), options={}, public=True, host_id="ana", status="lobby")
    lobby.join_seat("ana", "Ana", 1, {})
    lobby.join_seat("bo", "Bo", 3, {})
    lobby.writes.clear()
    seated = lobby.start("ana")
    assert [(m.player_id, m.seat) for m in seated] == [("ana", 0), ("bo", 1)]
    assert lobby.writes == [
        PutMember("ana", "seat", None, {}),
        PutMember("bo", "seat", None, {}),
        PutMember("ana", "seat", 0, {}),
        PutMember("bo", "seat", 1, {}),
        PutRoom(status="playing"),
    ]


def test_a_game_needs_its_minimum_of_players() -> None:
    lobby = slap_lobby()
    assert refused(lobby, lambda d: d.start("ana")).code == "NOT_ENOUGH_PLAYERS"


def test_teams_are_refused_where_the_game_has_none() -> None:
    lobby = slap_lobby()
    assert refused(lobby, lambda d: d.assign_teams("ana", [["ana"]])).code == "NOT_TEAM_GAME"
