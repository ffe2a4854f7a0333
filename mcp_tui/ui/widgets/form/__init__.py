"""The elicitation form: a flat ``requestedSchema`` as rows of label, control and inline error,
paged when long; the one table from a field kind to the control that edits it."""
