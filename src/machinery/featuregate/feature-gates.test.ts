import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGates } from './feature-gates.js';
import { kube133Gates } from './known-gates.js';

describe('feature gates as kube-apiserver 1.33 takes them', () => {
  it('starts at the 1.33 defaults', () => {
    const gates = FeatureGates.defaults();
    assert.equal(gates.enabled('InPlacePodVerticalScaling'), true);
    assert.equal(gates.enabled('ImageVolume'), false);
    assert.equal(gates.enabled('ClusterTrustBundleProjection'), false);
    assert.equal(gates.enabled('PodObservedGenerationTracking'), false);
    assert.deepEqual(kube133Gates['SidecarContainers'], { default: true, stage: 'GA', locked: true });
  });

  it('sets gates by name, later flags on top of earlier ones', () => {
    const first = FeatureGates.parse('ImageVolume=true, InPlacePodVerticalScaling=false');
    const gates = FeatureGates.parse('ImageVolume=f', first);
    assert.equal(gates.enabled('ImageVolume'), false);
    assert.equal(gates.enabled('InPlacePodVerticalScaling'), false);
  });

  it('turns on every alpha or beta gate with AllAlpha or AllBeta, a gate set by name winning', () => {
    const gates = FeatureGates.parse('AllAlpha=true,AllBeta=true,ImageVolume=false');
    assert.equal(gates.enabled('PodObservedGenerationTracking'), true);
    assert.equal(gates.enabled('ClusterTrustBundleProjection'), true);
    assert.equal(gates.enabled('ImageVolume'), false);
    assert.equal(FeatureGates.parse('AllBeta=false').enabled('InPlacePodVerticalScaling'), false);
  });

  it("refuses what kube refuses, in kube's words", () => {
    assert.throws(() => FeatureGates.parse('ImageVolume'), { message: 'missing bool value for ImageVolume' });
    assert.throws(() => FeatureGates.parse('ImageVolume=yes'), {
      message: 'invalid value of ImageVolume=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    });
    assert.throws(() => FeatureGates.parse('NoSuchGate=true'), {
      message: 'unrecognized feature gate: NoSuchGate',
    });
    assert.throws(() => FeatureGates.parse('SidecarContainers=false'), {
      message: 'cannot set feature gate SidecarContainers to false, feature is locked to true',
    });
    assert.throws(() => FeatureGates.parse('SidecarContainers=false,ComponentSLIs=false'), {
      message:
        '[cannot set feature gate SidecarContainers to false, feature is locked to true, cannot set feature gate ComponentSLIs to false, feature is locked to true]',
    });
    assert.throws(() => FeatureGates.defaults().with({ Nope: true }), {
      message: 'unrecognized feature gate: Nope',
    });
  });

  it('warns of GA gates set, and of gates Capstan accepts without modelling', () => {
    assert.deepEqual(
      FeatureGates.parse('SidecarContainers=true,WatchList=true,ImageVolume=true').warnings(),
      [
        'Setting GA feature gate SidecarContainers=true. It will be removed in a future release.',
        'feature gate WatchList=true is accepted, but Capstan does not model it: nothing changes',
      ],
    );
  });
});
