"""Probes for a process supervisor or load balancer: ``/healthz`` (alive) and ``/readyz`` (can serve)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """The process answers HTTP: restart it if this fails."""
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    """The database answers too: send this server traffic only while this succeeds."""
    try:
        current_app.extensions["rooms"].store.ping()
    except Exception as error:  # noqa: BLE001 - any failure means "not ready"
        current_app.logger.warning("readiness check failed: %s", error)
        return jsonify(status="unavailable", error="The database does not answer."), 503
    return jsonify(status="ok")
