"""CoreV1Api as a Python tool uses it: a namespace, ConfigMaps read and written every way the client
offers, lists in pages and by selector, the errors it raises, a watch, and server-side apply.
Run by test/e2e/python-client.test.ts; see common.py for the calling convention."""

import threading

import yaml
from kubernetes import client, watch

from common import api_client, as_json, connect, failure, poll, run

_, ns = connect()
core = client.CoreV1Api()
merging = client.CoreV1Api(api_client('application/merge-patch+json'))
applying = client.CoreV1Api(api_client('application/apply-patch+yaml'))


def config_map(name, data=None, labels=None):
    return client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name, labels=labels), data=data)


def names(config_map_list):
    return [item.metadata.name for item in config_map_list.items]


def namespace():
    created = core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    return {
        'type': type(created).__name__,
        'name': created.metadata.name,
        'phase': created.status.phase,
        'finalizers': created.spec.finalizers,
    }


def paging():
    # Published into each new namespace by a controller, soon after it is created.
    poll(lambda: names(core.list_namespaced_config_map(ns)), 'kube-root-ca.crt in ' + ns)
    tiers = {'p1': {'tier': 'front'}, 'p2': {'tier': 'back'}, 'p3': {'tier': 'front'},
             'p4': {'tier': 'back', 'legacy': 'true'}}
    for name, labels in tiers.items():
        core.create_namespaced_config_map(ns, config_map(name, {'n': name}, labels))
    pages = []
    token = None
    while True:
        page = core.list_namespaced_config_map(ns, limit=2, _continue=token)
        token = page.metadata._continue
        pages.append({'names': names(page), 'continue': token is not None,
                      'remainingItemCount': page.metadata.remaining_item_count})
        if token is None or len(pages) > 5:
            return pages


def selectors():
    def select(**kwargs):
        return names(core.list_namespaced_config_map(ns, **kwargs))
    return {
        'tier=front': select(label_selector='tier=front'),
        'tier in (front,back),!legacy': select(label_selector='tier in (front,back),!legacy'),
        'metadata.name=p2': select(field_selector='metadata.name=p2'),
        'tier=back + metadata.name!=p2': select(label_selector='tier=back', field_selector='metadata.name!=p2'),
    }


def crud():
    created = core.create_namespaced_config_map(ns, config_map('crud', {'a': '1'}, {'app': 'py'}))
    read = core.read_namespaced_config_map('crud', ns)
    listed = core.list_namespaced_config_map(ns, label_selector='app=py')
    read_back = as_json(read)
    read.data['a'] = '2'
    replaced = core.replace_namespaced_config_map('crud', ns, read)
    # A dict body goes out as a strategic merge patch, a list as a JSON patch.
    strategic = core.patch_namespaced_config_map(
        'crud', ns, {'metadata': {'labels': {'via': 'strategic'}}, 'data': {'b': '3'}})
    json_patched = core.patch_namespaced_config_map(
        'crud', ns, [{'op': 'replace', 'path': '/data/a', 'value': 'json'}])
    merged = merging.patch_namespaced_config_map('crud', ns, {'data': {'b': None, 'c': 'merged'}})
    deleted = core.delete_namespaced_config_map('crud', ns)
    dry = core.create_namespaced_config_map(ns, config_map('dry'), dry_run='All')
    return {
        'created': as_json(created),
        'createdType': type(created).__name__,
        'read': read_back,
        'list': {'type': type(listed).__name__, 'kind': listed.kind, 'apiVersion': listed.api_version,
                 'names': names(listed)},
        'replaced': {'data': replaced.data, 'resourceVersion': replaced.metadata.resource_version},
        'strategic': {'data': strategic.data, 'labels': strategic.metadata.labels},
        'jsonPatch': json_patched.data,
        'merge': merged.data,
        'deleted': {'type': type(deleted).__name__, **as_json(deleted)},
        'dryRun': {'name': dry.metadata.name, 'resourceVersion': dry.metadata.resource_version,
                   'hasUid': dry.metadata.uid is not None,
                   'readBack': failure(lambda: core.read_namespaced_config_map('dry', ns))['status']},
    }


def errors():
    taken = core.create_namespaced_config_map(ns, config_map('taken'))
    stale = core.read_namespaced_config_map('taken', ns)
    # DeleteOptions travel in the DELETE request's body: here, a precondition on another object's uid.
    recreated = client.V1DeleteOptions(
        preconditions=client.V1Preconditions(uid='00000000-0000-0000-0000-000000000000'))
    core.patch_namespaced_config_map('taken', ns, {'data': {'moved': 'on'}})
    stale.data = {'late': 'yes'}
    return {
        'takenUid': taken.metadata.uid,
        'notFound': failure(lambda: core.read_namespaced_config_map('absent', ns)),
        'alreadyExists': failure(lambda: core.create_namespaced_config_map(ns, config_map('taken'))),
        'conflict': failure(lambda: core.replace_namespaced_config_map('taken', ns, stale)),
        'invalid': failure(lambda: core.create_namespaced_config_map(ns, config_map('Bad_Name'))),
        'badFieldSelector': failure(lambda: core.list_namespaced_config_map(ns, field_selector='data.x=1')),
        'uidPrecondition': failure(lambda: core.delete_namespaced_config_map('taken', ns, body=recreated)),
    }


def watch_events():
    selector = 'metadata.name=watched'
    start = core.list_namespaced_config_map(ns, field_selector=selector).metadata.resource_version
    problems = []

    def write():
        try:
            core.create_namespaced_config_map(ns, config_map('watched', {'v': '1'}))
            core.patch_namespaced_config_map('watched', ns, {'data': {'v': '2'}})
            core.delete_namespaced_config_map('watched', ns)
        except Exception as e:  # reported below, with the events that did arrive
            problems.append(repr(e))

    writer = threading.Thread(target=write)
    watcher = watch.Watch()
    events = []
    # timeout_seconds bounds the watch on the server; it also turns off the client's retries.
    stream = watcher.stream(core.list_namespaced_config_map, ns, field_selector=selector,
                            resource_version=start, timeout_seconds=10)
    writer.start()
    for event in stream:
        obj = event['object']
        events.append({'type': event['type'], 'objectType': type(obj).__name__, 'name': obj.metadata.name,
                       'data': obj.data, 'resourceVersion': obj.metadata.resource_version,
                       'kind': event['raw_object']['kind'], 'apiVersion': event['raw_object']['apiVersion']})
        if event['type'] == 'DELETED':
            watcher.stop()
    writer.join()
    return {'start': start, 'events': events, 'lastSeen': watcher.resource_version, 'writeErrors': problems}


def apply():
    def manifest(data):
        return yaml.safe_dump({'apiVersion': 'v1', 'kind': 'ConfigMap', 'metadata': {'name': 'applied'},
                               'data': data})

    def managers(obj):
        entries = [{'manager': m.manager, 'operation': m.operation, 'fieldsV1': m.fields_v1}
                   for m in obj.metadata.managed_fields]
        return sorted(entries, key=lambda m: m['manager'])

    # The 22.6 client sends a str body as it is; a dict with this content type it refuses to send.
    created = applying.patch_namespaced_config_map(
        'applied', ns, manifest({'owned': 'py', 'shared': 'a'}), field_manager='pytool')
    contested = manifest({'shared': 'b'})
    conflict = failure(lambda: applying.patch_namespaced_config_map(
        'applied', ns, contested, field_manager='other'))
    forced = applying.patch_namespaced_config_map('applied', ns, contested, field_manager='other', force=True)
    return {
        'created': {'data': created.data, 'managers': managers(created)},
        'conflict': conflict,
        'forced': {'data': forced.data, 'managers': managers(forced)},
        'noFieldManager': failure(lambda: applying.patch_namespaced_config_map('applied', ns, contested)),
    }


run([('namespace', namespace), ('paging', paging), ('selectors', selectors), ('crud', crud),
     ('errors', errors), ('watch', watch_events), ('apply', apply)])
