"""Helpers for the scripts that test/e2e/python-client.test.ts runs with Debian's python3-kubernetes.

Each script is called as `script.py <kubeconfig> <namespace>`, runs named sections in order and
prints one JSON object to stdout: for every section either what the client got back or
{"error": <traceback>}. The TypeScript test holds the expectations; a script only reports.
"""

import json
import sys
import time
import traceback

from kubernetes import client, config
from kubernetes.client.rest import ApiException


def connect():
    """Loads the kubeconfig the way a tool does; returns (kubeconfig path, namespace)."""
    kubeconfig, namespace = sys.argv[1], sys.argv[2]
    config.load_kube_config(config_file=kubeconfig)
    return kubeconfig, namespace


def api_client(content_type=None):
    """An ApiClient from the loaded config. The 22.6 generated methods take no `_content_type`
    argument and pick the first type the OpenAPI spec lists (JSON patch, turned into a strategic
    merge patch for a dict body); a default header is the way this release lets a caller choose."""
    api = client.ApiClient()
    if content_type is not None:
        api.set_default_header('Content-Type', content_type)
    return api


def as_json(obj):
    """A model as the client would send it back: what it kept of the server's answer."""
    return client.ApiClient().sanitize_for_serialization(obj)


def failure(call):
    """The ApiException a call raised: HTTP status and reason phrase, and the Status body decoded."""
    try:
        call()
    except ApiException as e:
        body = json.loads(e.body) if e.body else None
        return {'status': e.status, 'reason': e.reason, 'body': body}
    raise AssertionError('the call succeeded')


def poll(check, what, timeout=10.0):
    """Calls check() until it returns something truthy; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError('timed out waiting for ' + what)
        time.sleep(0.02)


def run(sections):
    """Runs each (name, fn) in order and prints their results as one JSON object."""
    report = {}
    for name, fn in sections:
        try:
            report[name] = fn()
        except Exception:  # reported, so the other sections still run
            report[name] = {'error': traceback.format_exc()}
    json.dump(report, sys.stdout, default=str)
    sys.stdout.write('\n')
