"""Ratings, computed by openskill's Weng-Lin model (Plackett-Luce): every game is a free-for-all of teams, a team
of one seat in Soker and Age of Soccer (2-7 seats), the two teams of 1-3 seats of Carta Fútbol Club.

A game's places come from its outcome (engine.core.Outcome.places): the winning teams first, then by points (the
game's own team points, or the sum of each team's seats'); equal on both share a place. A player's rating is mu (the
estimate) and sigma (its uncertainty); the figure shown is ``mu - 3 sigma``, which the player is very likely above
(the library's ordinal).

System players are rated per kind and game, like a player. When one kind plays several seats of one table (a solo room
of one person against three heuristic bots), every seat plays with the kind's rating, and the kind's new rating is the
mean of the seats' new ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # the library's defaults: mu 25, sigma 25/3
MU, SIGMA = MODEL.mu, MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def display(self) -> float:
        """The figure shown, and the leaderboards' order: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def rate(skills: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """Every team's skills after a game in which team ``t`` (its seats' skills ``skills[t]``) took ``places[t]``."""
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in team] for team in skills]
    rated = MODEL.rate(teams, ranks=list(places))
    return [[Skill(rating.mu, rating.sigma) for rating in team] for team in rated]


def rate_table(
    seats: Sequence[tuple[str, int]], team_places: Sequence[int], current: Mapping[str, Skill]
) -> dict[str, Skill]:
    """The new skill of everyone at a table: ``seats`` holds each seat's (rating id, team), ``team_places`` each
    team's place, ``current`` each rating id's skill now (missing: a first game, at the model's defaults). A rating id
    at several seats (a kind of system player) gets the mean of its seats' new skills."""
    count = len(team_places)
    skills: list[list[Skill]] = [[] for _ in range(count)]
    holders: list[list[str]] = [[] for _ in range(count)]
    for rating_id, team in seats:
        skills[team].append(current.get(rating_id, Skill()))
        holders[team].append(rating_id)
    played = [team for team in range(count) if skills[team]]
    after = rate([skills[team] for team in played], [team_places[team] for team in played])
    new: dict[str, list[Skill]] = {}
    for team, rated in zip(played, after, strict=True):
        for rating_id, skill in zip(holders[team], rated, strict=True):
            new.setdefault(rating_id, []).append(skill)
    return {
        rating_id: Skill(sum(s.mu for s in found) / len(found), sum(s.sigma for s in found) / len(found))
        for rating_id, found in new.items()
    }
