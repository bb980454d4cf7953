"""The service's ids: every prefix of the spec, and what it names (for messages, the palette and `aftui get`)."""

from __future__ import annotations

KINDS: dict[str, str] = {
    "dc_": "source",
    "p_": "workflow",
    "wh_": "webhook",
    "sub_": "subscription",
    "apn_": "account",
    "app_": "app",
    "oa_": "OAuth app",
    "sc_": "component",
    "tch_": "workflow template",
    "o_": "workspace",
    "u_": "user",
    "proj_": "Connect project",
    "hi_": "HTTP trigger",
    "ti_": "timer trigger",
    "ei_": "email trigger",
}
