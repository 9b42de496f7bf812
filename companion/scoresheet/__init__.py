"""The score-only helper: score sheets kept as logs, their pages, and the stateless scoring API."""
