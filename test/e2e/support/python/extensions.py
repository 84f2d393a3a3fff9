"""Beyond the core group, as a Python operator uses it: a Deployment through AppsV1Api, a CRD through
ApiextensionsV1Api, its objects through CustomObjectsApi (status subresource and watch included), and
the DynamicClient, which finds both through discovery. Run by test/e2e/python-client.test.ts; see
common.py for the calling convention."""

import os

from kubernetes import client, dynamic, watch
from kubernetes.dynamic.exceptions import NotFoundError, ResourceNotFoundError

from common import api_client, as_json, connect, failure, poll, run

kubeconfig, ns = connect()
group, version, plural = 'pyclient.example.com', 'v1', 'widgets'
widget_api_version = group + '/' + version


# The namespace's resourceVersion: older than anything the custom resource's watch cache holds.
namespace_version = []


def namespace():
    created = client.CoreV1Api().create_namespace({'metadata': {'name': ns}})
    namespace_version.append(created.metadata.resource_version)
    return {'resourceVersion': created.metadata.resource_version}


def deployment():
    apps = client.AppsV1Api()
    labels = {'app': 'web'}
    containers = [
        client.V1Container(name='app', image='nginx:1.25', env=[client.V1EnvVar(name='MODE', value='py')]),
        client.V1Container(name='sidecar', image='busybox:1.36', command=['sleep', '3600']),
    ]
    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name='web'),
        spec=client.V1DeploymentSpec(
            selector=client.V1LabelSelector(match_labels=labels),
            template=client.V1PodTemplateSpec(metadata=client.V1ObjectMeta(labels=labels),
                                              spec=client.V1PodSpec(containers=containers))))
    apps.create_namespaced_deployment(ns, body)
    read = apps.read_namespaced_deployment('web', ns)
    # Strategic merge (the client's default for a dict): containers merge by name, so the sidecar
    # and the app's env stay; a merge patch would have replaced the whole list.
    patched = apps.patch_namespaced_deployment(
        'web', ns, {'spec': {'template': {'spec': {'containers': [{'name': 'app', 'image': 'nginx:1.26'}]}}}})
    return {
        'type': type(read).__name__,
        'generation': read.metadata.generation,
        'spec': as_json(read.spec),
        'maxSurge': read.spec.strategy.rolling_update.max_surge,
        'patched': {
            'generation': patched.metadata.generation,
            'containers': [{'name': c.name, 'image': c.image, 'env': as_json(c.env)}
                           for c in patched.spec.template.spec.containers],
        },
    }


def crd():
    extensions = client.ApiextensionsV1Api()
    schema = {'type': 'object', 'properties': {
        'spec': {'type': 'object', 'properties': {'size': {'type': 'integer'}, 'color': {'type': 'string'}}},
        'status': {'type': 'object', 'properties': {'ready': {'type': 'boolean'}}}}}
    extensions.create_custom_resource_definition(client.V1CustomResourceDefinition(
        metadata=client.V1ObjectMeta(name=plural + '.' + group),
        spec=client.V1CustomResourceDefinitionSpec(
            group=group, scope='Namespaced',
            names=client.V1CustomResourceDefinitionNames(plural=plural, singular='widget', kind='Widget'),
            versions=[client.V1CustomResourceDefinitionVersion(
                name=version, served=True, storage=True,
                schema=client.V1CustomResourceValidation(open_apiv3_schema=schema),
                subresources=client.V1CustomResourceSubresources(status={}))])))

    def established():
        found = extensions.read_custom_resource_definition(plural + '.' + group)
        conditions = found.status.conditions or []
        return found if any(c.type == 'Established' and c.status == 'True' for c in conditions) else None

    ready = poll(established, 'the CRD to be Established')
    return {
        'conditions': sorted([{'type': c.type, 'status': c.status, 'reason': c.reason, 'message': c.message}
                              for c in ready.status.conditions], key=lambda c: c['type']),
        'acceptedNames': as_json(ready.status.accepted_names),
        'storedVersions': ready.status.stored_versions,
    }


def custom_objects(too_old):
    objects = client.CustomObjectsApi()
    args = (group, version, ns, plural)

    def widget(name, color, size):
        return {'apiVersion': widget_api_version, 'kind': 'Widget',
                'metadata': {'name': name, 'labels': {'color': color}}, 'spec': {'size': size}}

    created = objects.create_namespaced_custom_object(*args, widget('w1', 'blue', 1))
    objects.create_namespaced_custom_object(*args, widget('w2', 'red', 1))
    got = objects.get_namespaced_custom_object(*args, 'w1')
    listed = objects.list_namespaced_custom_object(*args, label_selector='color=blue')
    # CustomObjectsApi sends application/merge-patch+json.
    patched = objects.patch_namespaced_custom_object(*args, 'w1', {'spec': {'size': 2, 'color': 'green'}})
    status = objects.patch_namespaced_custom_object_status(
        *args, 'w1', {'status': {'ready': True}, 'spec': {'size': 99}})
    main = objects.patch_namespaced_custom_object(*args, 'w1', {'status': {'ready': False}})
    deleted = objects.delete_namespaced_custom_object(*args, 'w2')
    # The custom resource's watch cache started when its CRD was established: a resourceVersion
    # from before that is too old for it, as for kube's cacher. With timeout_seconds the client
    # raises at once instead of retrying the same version.
    expired = failure(lambda: list(watch.Watch().stream(
        objects.list_namespaced_custom_object, *args, resource_version=too_old, timeout_seconds=5)))
    return {
        'created': created,
        'got': got,
        'list': {'kind': listed['kind'], 'apiVersion': listed['apiVersion'],
                 'names': [item['metadata']['name'] for item in listed['items']]},
        'patched': {'spec': patched['spec'], 'generation': patched['metadata']['generation']},
        'status': {'spec': status['spec'], 'status': status['status'],
                   'generation': status['metadata']['generation']},
        'statusViaMain': {'status': main['status'], 'generation': main['metadata']['generation']},
        'deleted': deleted,
        'missing': failure(lambda: objects.get_namespaced_custom_object(*args, 'w2')),
        'expired': expired,
    }


def dynamic_client():
    cache_file = os.path.join(os.path.dirname(kubeconfig), 'python-discovery.json')
    dyn = dynamic.DynamicClient(api_client(), cache_file=cache_file)

    def find(api_version, kind):
        try:
            return dyn.resources.get(api_version=api_version, kind=kind)
        except ResourceNotFoundError:  # not in discovery yet; the client refreshed its cache
            return None

    config_maps = find('v1', 'ConfigMap')
    widgets = poll(lambda: find(widget_api_version, 'Widget'), 'Widget in discovery')
    config_maps.create(namespace=ns, body={'apiVersion': 'v1', 'kind': 'ConfigMap',
                                           'metadata': {'name': 'dyn'}, 'data': {'via': 'dynamic'}})
    widgets.create(namespace=ns, body={'apiVersion': widget_api_version, 'kind': 'Widget',
                                       'metadata': {'name': 'w3'}, 'spec': {'size': 3}})
    got_config_map = config_maps.get(name='dyn', namespace=ns)
    got_widget = widgets.get(name='w3', namespace=ns)
    try:
        widgets.get(name='absent', namespace=ns)
        missing = None
    except NotFoundError as e:
        missing = {'type': type(e).__name__, 'status': e.status, 'summary': e.summary()}
    return {
        'resources': [{'name': r.name, 'kind': r.kind, 'groupVersion': r.group_version,
                       'namespaced': r.namespaced, 'verbs': sorted(r.verbs),
                       'subresources': sorted(r.subresources)} for r in (config_maps, widgets)],
        'configMap': {'kind': got_config_map.kind, 'data': got_config_map.to_dict()['data']},
        'widget': {'kind': got_widget.kind, 'name': got_widget.metadata.name, 'size': got_widget.spec.size,
                   'names': sorted(item.metadata.name for item in widgets.get(namespace=ns).items)},
        'missing': missing,
    }


run([('namespace', namespace), ('deployment', deployment), ('crd', crd),
     ('customObjects', lambda: custom_objects(namespace_version[0])), ('dynamic', dynamic_client)])
