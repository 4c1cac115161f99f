"""The semantic layer: business objects, fields, entities, measures, time words, glossary."""

from bosun.catalog.loader import Catalog, bundled_catalog_path, load_catalog
from bosun.catalog.schema import CatalogSpec, EntitySpec, FieldSpec, MeasureSpec, ObjectSpec

__all__ = [
    "Catalog",
    "CatalogSpec",
    "EntitySpec",
    "FieldSpec",
    "MeasureSpec",
    "ObjectSpec",
    "bundled_catalog_path",
    "load_catalog",
]
