"""Page "Tables" (filled in with core.tables)."""

import streamlit as st

st.info("Table chunking arrives with core.tables.")
