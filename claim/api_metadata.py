"""What ``OPTIONS`` answers on every API endpoint: name, description, media types.

DRF's default also describes the POST/PUT fields by instantiating the view's serializer, which
fails on views that choose serializers per method; the OpenAPI schema at /api/v1/schema/ is the
field-level description instead.
"""

from __future__ import annotations

from rest_framework.metadata import BaseMetadata


class EndpointMetadata(BaseMetadata):
    def determine_metadata(self, request, view) -> dict:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [r.media_type for r in view.renderer_classes],
            "parses": [p.media_type for p in view.parser_classes],
            "schema": "/api/v1/schema/",
        }
