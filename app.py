"""Chunk Explorer: entry point. Navigation over pages/ and the page config.

Run with ``streamlit run app.py``. Pages stay thin; everything they compute comes from core/.
Each page draws the shared settings sidebar itself (``common.sidebar_settings``): the widgets
have the same keys on every page, so the settings carry across pages and into the URL.
"""

from __future__ import annotations

import streamlit as st

from core.arrow_pool import prefer_returning_pool
from pages import common

prefer_returning_pool()  # the app's process: tables stream with less memory (see the function)

st.set_page_config(page_title="Chunk Explorer", page_icon=":material/content_cut:", layout="wide")

# The default page is served at the root, "/". Its own ``url_path`` is reserved but not served
# (Streamlit answers "Page not found"), so it is not ``explore``: ``/explore``, beside
# ``/tables`` and ``/retrieve``, is the hidden page below, which opens the root with the link's
# settings.
EXPLORE = st.Page("pages/explore.py", title="Explore code", icon=":material/code:", url_path="explore-code", default=True)


def _explore_address() -> None:
    st.switch_page(EXPLORE, query_params=st.query_params.to_dict())


PAGES = [
    EXPLORE,
    st.Page(_explore_address, title="Explore code", url_path="explore", visibility="hidden"),
    st.Page("pages/tables.py", title="Tables", icon=":material/table_chart:", url_path="tables"),
]
for extra in common.optional_pages():
    PAGES.append(extra)

# Said to the page it runs (common.leave_legacy_page_mode): a page run without it is no run of
# app.py's (Streamlit's legacy page mode) and reruns.
st.session_state[common.VIA_APP] = True
try:
    st.navigation(PAGES).run()
finally:
    st.session_state[common.VIA_APP] = False
