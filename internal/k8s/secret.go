package k8s

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// SecretManifest renders an Opaque Secret named name in namespace with
// the given keys and values, for the credentials a Job refers to (see
// Spec.Credentials). It holds the credentials in clear text: write it to
// a file only the user can read, never next to the Job.
func SecretManifest(name, namespace string, data map[string]string) ([]byte, error) {
	s := corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"app.kubernetes.io/name": "stampede"}},
		Type:       corev1.SecretTypeOpaque,
		StringData: data,
	}
	b, err := yaml.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("render secret: %w", err)
	}
	return b, nil
}
