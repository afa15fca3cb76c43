// Checking a JUnit XML report as Jenkins reads it: `xmllint --schema` (libxml2
// compiled to WebAssembly by xmllint-wasm, no system tool) against a schema
// written here from the rules of Jenkins' jenkins-junit.xsd (Thales' junit-4.xsd,
// as JUnit 5's platform tests keep it) for every element kagent writes:
// `<testsuites>` takes name, time, tests, failures, disabled, errors (no
// `skipped`); `<skipped>` is text with no attribute; a test case's children come
// in the order skipped, error, failure, system-out, system-err. No npm package
// ships that file, so these rules are restated, and typed more strictly
// (counts are integers, times decimals) where kagent promises more.
import { validateXML } from 'xmllint-wasm';

export const JENKINS_JUNIT_XSD = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="count"><xs:restriction base="xs:nonNegativeInteger"/></xs:simpleType>
  <xs:simpleType name="seconds"><xs:restriction base="xs:decimal"><xs:minInclusive value="0"/></xs:restriction></xs:simpleType>
  <xs:element name="failure">
    <xs:complexType mixed="true">
      <xs:attribute name="type" type="xs:string" use="optional"/>
      <xs:attribute name="message" type="xs:string" use="optional"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="error">
    <xs:complexType mixed="true">
      <xs:attribute name="type" type="xs:string" use="optional"/>
      <xs:attribute name="message" type="xs:string" use="optional"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="skipped" type="xs:string"/>
  <xs:element name="system-out" type="xs:string"/>
  <xs:element name="system-err" type="xs:string"/>
  <xs:element name="testcase">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="skipped" minOccurs="0" maxOccurs="1"/>
        <xs:element ref="error" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element ref="failure" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element ref="system-out" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element ref="system-err" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="classname" type="xs:string" use="optional"/>
      <xs:attribute name="time" type="seconds" use="optional"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuite">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="testcase" minOccurs="0" maxOccurs="unbounded"/>
        <xs:element ref="system-out" minOccurs="0" maxOccurs="1"/>
        <xs:element ref="system-err" minOccurs="0" maxOccurs="1"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="tests" type="count" use="required"/>
      <xs:attribute name="failures" type="count" use="optional"/>
      <xs:attribute name="errors" type="count" use="optional"/>
      <xs:attribute name="time" type="seconds" use="optional"/>
      <xs:attribute name="disabled" type="count" use="optional"/>
      <xs:attribute name="skipped" type="count" use="optional"/>
      <xs:attribute name="timestamp" type="xs:string" use="optional"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
      <xs:attribute name="name" type="xs:string" use="optional"/>
      <xs:attribute name="time" type="seconds" use="optional"/>
      <xs:attribute name="tests" type="count" use="optional"/>
      <xs:attribute name="failures" type="count" use="optional"/>
      <xs:attribute name="disabled" type="count" use="optional"/>
      <xs:attribute name="errors" type="count" use="optional"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
`;

/** `xmllint --schema` of a report's text against the schema above (or another). */
export async function xmllint(xml: string, xsd = JENKINS_JUNIT_XSD): Promise<{ valid: boolean; output: string }> {
  const result = await validateXML({
    xml: { fileName: 'report.xml', contents: xml },
    schema: { fileName: 'jenkins-junit.xsd', contents: xsd },
  });
  return { valid: result.valid, output: result.rawOutput };
}
