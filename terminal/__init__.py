"""`kickoff client`: a terminal client of a kickoff server (Textual), built on the generated stubs only."""
